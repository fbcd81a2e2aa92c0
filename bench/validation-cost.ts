// What hostile but well-formed bodies cost the api (issue 21): two tenants send, back to back, a PUT
// item-config of MAX_CUSTOM_ITEMS items whose every field has the wrong type, then a 1024x1024 custom
// texture upload, while /status is probed at a fixed rate from a worker thread and the api's event-loop
// delay is measured inside it (perf_hooks.monitorEventLoopDelay, bench/lib/loop-probe.ts).
// Prints each request's outcome and the api's time (Server-Timing), /status latency and the loop's delay.
// Goal: event-loop max and /status p99 under 50 ms.
// Run: node bench/validation-cost.ts   (env: BENCH_SECONDS=6 PROBE_RATE=50)

import { readFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { CUSTOM_TEXTURE_MAX_SIDE, MAX_CUSTOM_ITEMS, MAX_EXTRA_DROPS } from '@canopy/contract';
import { encodeRttxtr } from '@canopy/formats';
import { benchUser, call, percentile, startBenchApi } from './lib/api-process.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const PROBE_RATE = Number(process.env.PROBE_RATE ?? 50);

/** One custom item with every field of the wrong type (and a full Extra_Drops list of wrong pairs). */
const wrongItem = (i: number) => ({
  ID: `id${i}`,
  Name: i,
  Desc: 1,
  rarity: 'rare',
  Bonus: 'x',
  Change_Drop_Seeds: 'x',
  Gems: 'x',
  Item_Price: 'x',
  Far_Punch: 'x',
  Punch_Hit: 'x',
  Punch_Id: 'x',
  Punch_Place: 'x',
  Xp: 'x',
  Extra_Drops: Array.from({ length: MAX_EXTRA_DROPS }, () => ['a', 'b']),
  property_blacklist: 'x',
  property_blocked: 'x',
  property_farmable: 'x',
  property_gacha: 'x',
  property_unobtainable: 'x',
  property_untradeable: 'x',
  texture: { file: 1, texture_x: 'x', texture_y: 'x', item_kind: 'x' },
});
const hostileItems = JSON.stringify({ items: Array.from({ length: MAX_CUSTOM_ITEMS }, (_, i) => wrongItem(i)) });

// The largest texture the contract allows, stored uncompressed (noise would not compress anyway).
const side = CUSTOM_TEXTURE_MAX_SIDE;
const rgba = new Uint8Array(side * side * 4);
for (let i = 0; i < rgba.length; i++) rgba[i] = (i * 2654435761) >>> 24;
const texture = JSON.stringify({
  itemName: 'Big Sheet',
  rarity: 1,
  rttexBase64: Buffer.from(encodeRttxtr({ width: side, height: side, rgba })).toString('base64'),
  properties: {},
});

const probeFile = join(process.env.TMPDIR ?? '/tmp', `canopy-loop-probe-${process.pid}.json`);
const api = await startBenchApi({
  NODE_OPTIONS: `${process.env.API_NODE_OPTIONS ?? ''} --import=${new URL('./lib/loop-probe.ts', import.meta.url).pathname}`,
  CANOPY_LOOP_PROBE_FILE: probeFile,
  // The bench measures validation, not the per-user limit on configuration writes.
  CANOPY_CONFIG_WRITE_RATE_LIMIT: '1000000',
});
const loopFigures = async () => {
  api.child.kill('SIGUSR2');
  await new Promise((r) => setTimeout(r, 200));
  return JSON.parse(readFileSync(probeFile, 'utf8')) as { p50: number; p99: number; max: number; samples: number };
};

/**
 * One request on its own connection; its status, the api's own time (Server-Timing) and the start of its answer.
 * An answer sent before the whole body was read (a refusal) closes the connection: that is its status still.
 */
function send(base: string, token: string, method: string, path: string, body: string) {
  return new Promise<{ status: number; app: number; answer: string }>((resolve) => {
    const req = http.request(new URL(base + path), {
      method,
      agent: false,
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
      },
    });
    let settled = false;
    const done = (outcome: { status: number; app: number; answer: string }) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
      req.destroy();
    };
    req.on('response', (res) => {
      let text = '';
      res.on('data', (d) => {
        text += d;
      });
      res.on('end', () => {
        const app = Number(/app;dur=([\d.]+)/.exec(String(res.headers['server-timing'] ?? ''))?.[1] ?? Number.NaN);
        done({ status: res.statusCode ?? 0, app, answer: text.slice(0, 120) });
      });
    });
    req.on('error', (error) => done({ status: 0, app: Number.NaN, answer: `connection: ${error.message}` }));
    req.end(body);
  });
}

try {
  const tenants = await Promise.all(
    ['tenanta', 'tenantb'].map(async (name) => {
      const user = await benchUser(api.base, name);
      const made = await call(api.base, user.token, 'POST', `/users/${user.id}/server`, { serverName: name });
      if (made.status !== 200 && made.status !== 201) throw new Error(`server not created: ${JSON.stringify(made)}`);
      return user;
    }),
  );
  type Outcome = { statuses: Map<number, number>; app: number[]; answers: Map<number, string> };
  const outcomes = new Map<string, Outcome>();
  const note = (what: string, r: { status: number; app: number; answer: string }) => {
    const o: Outcome = outcomes.get(what) ?? { statuses: new Map(), app: [], answers: new Map() };
    outcomes.set(what, o);
    o.statuses.set(r.status, (o.statuses.get(r.status) ?? 0) + 1);
    if (!o.answers.has(r.status)) o.answers.set(r.status, r.answer);
    if (Number.isFinite(r.app)) o.app.push(r.app);
  };

  await loopFigures(); // drop what set-up cost
  const end = performance.now() + SECONDS * 1000;
  const probe = new Promise<{ latencies: number[]; errors: number }>((resolve, reject) => {
    const worker = new Worker(new URL('./lib/status-probe.ts', import.meta.url), {
      workerData: { url: `${api.base}/status`, rate: PROBE_RATE, ms: SECONDS * 1000 },
    });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  // Each tenant sends the two bodies back to back until the time is up.
  await Promise.all(
    tenants.map(async ({ id, token }) => {
      while (performance.now() < end) {
        note(
          'PUT item-config, 1,000 wrong items',
          await send(api.base, token, 'PUT', `/users/${id}/server/item-config`, hostileItems),
        );
        note(
          'POST custom-item, 1024x1024 texture',
          await send(api.base, token, 'POST', `/users/${id}/server/custom-item`, texture),
        );
      }
    }),
  );
  const { latencies, errors } = await probe;
  const loop = await loopFigures();

  console.log(`Node ${process.version}, SQLite, 2 tenants for ${SECONDS} s, /status probed at ${PROBE_RATE}/s\n`);
  console.log(
    `item-config body ${(hostileItems.length / 1024).toFixed(0)} KB, texture body ${(texture.length / 1024 / 1024).toFixed(1)} MB`,
  );
  console.log('-- requests: outcome, api time p50 / max (Server-Timing)');
  for (const [what, o] of outcomes) {
    console.log(
      `${what.padEnd(38)} ${[...o.statuses].map(([k, v]) => `${k}: ${v}`).join(', ')}  ` +
        `${percentile(o.app, 50).toFixed(1)} / ${Math.max(...o.app).toFixed(1)} ms`,
    );
    for (const [status, answer] of o.answers) console.log(`  ${status}: ${answer}`);
  }
  console.log('-- the api while the tenants sent');
  console.log(
    `event-loop delay   p50 ${loop.p50.toFixed(1)} ms  p99 ${loop.p99.toFixed(1)} ms  max ${loop.max.toFixed(1)} ms`,
  );
  console.log(
    `GET /status        p50 ${percentile(latencies, 50).toFixed(1)} ms  p99 ${percentile(latencies, 99).toFixed(1)} ms  max ${Math.max(...latencies).toFixed(1)} ms  (${latencies.length} ok, ${errors} failed)`,
  );
  const met = loop.max < 50 && percentile(latencies, 99) < 50 && errors === 0;
  console.log(`goal: event-loop max and /status p99 under 50 ms -> ${met ? 'met' : 'NOT met'}`);
} finally {
  await api.stop();
}
