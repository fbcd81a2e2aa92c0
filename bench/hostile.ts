// The api under attack: 20 clients send max-size legitimate and over-limit bodies while one user opens
// 5,000 WebSockets. Prints the api's event-loop delay (measured inside it) and /status latency (a probe at
// a fixed rate). Goal (issue 8): both p99 under 50 ms.
// Run: node bench/hostile.ts   (env: CLIENTS=20 SOCKETS=5000 BENCH_SECONDS=10 PROBE_RATE=50 ATTACKS=owner,mallory)

import { readFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { WORLD_MAX_SIDE } from '@canopy/contract';
import { WebSocket } from 'ws';
import { benchUser, call, percentile, startBenchApi } from './lib/api-process.ts';

const CLIENTS = Number(process.env.CLIENTS ?? 20);
const SOCKETS = Number(process.env.SOCKETS ?? 5000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const PROBE_RATE = Number(process.env.PROBE_RATE ?? 50);
const OVER_LIMIT_BYTES = 20 * 1024 * 1024;

const probeFile = join(process.env.TMPDIR ?? '/tmp', `canopy-loop-probe-${process.pid}.json`);
const api = await startBenchApi({
  NODE_OPTIONS: `${process.env.API_NODE_OPTIONS ?? ''} --import=${new URL('./lib/loop-probe.ts', import.meta.url).pathname}`,
  CANOPY_LOOP_PROBE_FILE: probeFile,
});
const loopFigures = async () => {
  api.child.kill('SIGUSR2');
  await new Promise((r) => setTimeout(r, 200));
  return JSON.parse(readFileSync(probeFile, 'utf8')) as { p50: number; p99: number; max: number; samples: number };
};

/** One raw HTTP request whose body may be refused before it is all sent; resolves to the status or 'closed'. */
function send(method: string, path: string, token: string | null, body: Buffer): Promise<string> {
  return new Promise((resolve) => {
    const url = new URL(api.base + path);
    const req = http.request(url, {
      method,
      headers: {
        'content-type': 'application/json',
        'content-length': body.length,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
    });
    let settled = false;
    const done = (outcome: string) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
      req.destroy();
    };
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => done(String(res.statusCode)));
    });
    req.on('error', () => done('closed'));
    req.end(body);
  });
}

try {
  const owner = await benchUser(api.base, 'hostowner');
  const mallory = await benchUser(api.base, 'mallory');
  await call(api.base, owner.token, 'POST', `/users/${owner.id}/server`, { serverName: 'hostile' });
  await call(api.base, owner.token, 'POST', `/users/${owner.id}/server/hostile/start`);
  for (let i = 0; ; i++) {
    const feed = await (await fetch(`${api.base}/status`)).json();
    if (feed.hostedServers[0]?.status === 'ONLINE') break;
    if (i > 300) throw new Error('the server did not come online');
    await new Promise((r) => setTimeout(r, 100));
  }
  const list = await call(api.base, owner.token, 'GET', `/users/${owner.id}/server/worlds`);
  const worldName: string = list.body.worlds[0].name;
  const world = (await call(api.base, owner.token, 'GET', `/users/${owner.id}/server/worlds/${worldName}`)).body;
  // The largest world the contract allows, every tile with its largest values.
  const tile = { fg: 65535, bg: 65535, o: 1, l: 1, fl: 0xffffffff, if_c: 0x7fffffff };
  const maxWorld = Buffer.from(
    JSON.stringify({
      ...world,
      width: WORLD_MAX_SIDE,
      height: WORLD_MAX_SIDE,
      blocks: Array.from({ length: WORLD_MAX_SIDE * WORLD_MAX_SIDE }, () => tile),
    }),
  );
  const huge = Buffer.alloc(OVER_LIMIT_BYTES, '1');
  huge.write('{"blocks":[');
  const worldPath = `/users/${owner.id}/server/worlds/${worldName}`;

  // What each attacking client cycles through.
  const allAttacks: { name: string; run: () => Promise<string> }[] = [
    { name: 'owner: max-size world PUT', run: () => send('PUT', worldPath, owner.token, maxWorld) },
    { name: "mallory: 20 MB PUT to owner's world", run: () => send('PUT', worldPath, mallory.token, huge) },
    {
      name: 'mallory: 20 MB PUT to own id',
      run: () => send('PUT', `/users/${mallory.id}/server/worlds/X`, mallory.token, huge),
    },
    { name: 'anonymous: 20 MB POST /register', run: () => send('POST', '/register', null, huge) },
    { name: 'owner: 20 MB world PUT', run: () => send('PUT', worldPath, owner.token, huge) },
  ];
  // ATTACKS=owner,anonymous keeps the attacks whose name starts with one of these words (to find a cause).
  const only = process.env.ATTACKS?.split(',');
  const attacks = allAttacks.filter((a) => !only || only.some((w) => a.name.startsWith(w)));
  const outcomes = new Map<string, Map<string, number>>();
  const count = (name: string, outcome: string) => {
    const m = outcomes.get(name) ?? new Map<string, number>();
    outcomes.set(name, m);
    m.set(outcome, (m.get(outcome) ?? 0) + 1);
  };

  await loopFigures(); // drop what set-up cost
  const end = performance.now() + SECONDS * 1000;
  const clients = Array.from({ length: CLIENTS }, async (_, i) => {
    for (let n = i; performance.now() < end; n++) {
      const attack = attacks[n % attacks.length];
      if (attack) count(attack.name, await attack.run());
    }
  });

  // One user opens SOCKETS WebSockets as fast as the api lets them.
  const sockets: WebSocket[] = [];
  const socketOutcomes = new Map<string, number>();
  const opening = (async () => {
    const wsBase = `${api.base.replace('http', 'ws')}/ws/${mallory.id}?token=${mallory.token}`;
    const batch = 100;
    for (let i = 0; i < SOCKETS && performance.now() < end; i += batch)
      await Promise.all(
        Array.from(
          { length: Math.min(batch, SOCKETS - i) },
          () =>
            new Promise<void>((resolve) => {
              const ws = new WebSocket(wsBase);
              sockets.push(ws);
              const note = (what: string) => {
                socketOutcomes.set(what, (socketOutcomes.get(what) ?? 0) + 1);
                resolve();
              };
              const timer = setTimeout(() => note('still open after 1 s'), 1000);
              ws.once('close', (code, reason) => {
                clearTimeout(timer);
                note(`closed ${code} ${String(reason)}`);
              });
              ws.once('unexpected-response', (_req, res) => {
                clearTimeout(timer);
                note(`refused HTTP ${res.statusCode}`);
              });
              ws.once('error', () => {});
            }),
        ),
      );
  })();

  // The probe: /status at a fixed rate from a worker thread, so that the attackers' work in this process
  // cannot delay the probe's own timers and reads; latency counts from when each request was due.
  const probe = new Promise<{ latencies: number[]; errors: number }>((resolve, reject) => {
    const worker = new Worker(new URL('./lib/status-probe.ts', import.meta.url), {
      workerData: { url: `${api.base}/status`, rate: PROBE_RATE, ms: end - performance.now() },
    });
    worker.once('message', resolve);
    worker.once('error', reject);
  });

  const [{ latencies: statusLatencies, errors: statusErrors }] = await Promise.all([probe, ...clients, opening]);
  const loop = await loopFigures();
  for (const ws of sockets) ws.terminate();

  console.log(`Node ${process.version}, SQLite, ${SECONDS}s, ${CLIENTS} attacking clients, ${SOCKETS} sockets tried\n`);
  console.log('-- requests (outcome: count)');
  for (const [name, m] of outcomes)
    console.log(`${name.padEnd(38)} ${[...m].map(([k, v]) => `${k}: ${v}`).join(', ')}`);
  console.log(`max-size legitimate world body: ${(maxWorld.length / 1024 / 1024).toFixed(2)} MB`);
  console.log('-- sockets from one user');
  for (const [k, v] of socketOutcomes) console.log(`${k.padEnd(38)} ${v}`);
  console.log('-- the api while under attack');
  console.log(
    `event-loop delay   p50 ${loop.p50.toFixed(1)} ms  p99 ${loop.p99.toFixed(1)} ms  max ${loop.max.toFixed(1)} ms`,
  );
  console.log(
    `GET /status        p50 ${percentile(statusLatencies, 50).toFixed(1)} ms  p99 ${percentile(statusLatencies, 99).toFixed(1)} ms  (${statusLatencies.length} ok, ${statusErrors} failed)`,
  );
  const met = loop.p99 < 50 && percentile(statusLatencies, 99) < 50 && statusErrors === 0;
  console.log(`goal: event-loop p99 and /status p99 under 50 ms -> ${met ? 'met' : 'NOT met'}`);
} finally {
  await api.stop();
}
