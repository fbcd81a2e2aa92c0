// Two api replicas on one PostgreSQL (issue 22 part 5, ADR 0036) and the gateway run apart (ADR 0039), as real
// processes on one fresh database: (1) how long an event made on replica B takes to reach a WebSocket on replica A
// through LISTEN/NOTIFY — an admin ban or unban of a user sent to B's HTTP api, timed from the request until the
// user's socket on A receives its account_notice (B's own HTTP answer time beside it); (2) the idle cost of a
// replica and of the standalone gateway: PSS (with child processes: the gateway's ENet front) and CPU time over
// 10 s, measured after 10 s idle. Both replicas run with CANOPY_GATEWAY=off, each on its own data directory.
// Run: node bench/replicas.ts   (env: EVENTS=200)
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { WebSocket } from 'ws';
import { createPgDatabase } from '../apps/api/test/support/databases.ts';
import { benchUser, call, cpuMs, memoryMb, percentile, processTree, startBenchApi } from './lib/api-process.ts';

const EVENTS = Number(process.env.EVENTS ?? 200);
const IDLE_MS = 10_000;
const root = new URL('../', import.meta.url).pathname;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const db = await createPgDatabase();
const shared = {
  DATABASE_URL: db.url,
  CANOPY_SESSION_SECRET: randomBytes(32).toString('hex'),
  CANOPY_GATEWAY: 'off',
};
// A first: it migrates the database and takes the scheduler's lock (the leader); B starts on the migrated database.
const a = await startBenchApi(shared);
const b = await startBenchApi(shared);
let gateway: ChildProcess | undefined;
const gatewayDir = mkdtempSync(join(tmpdir(), 'canopy-bench-gateway-'));

try {
  // ---- (1) propagation B -> A ----
  const user = await benchUser(a.base, 'replicauser');
  const admin = await benchUser(b.base, 'replicaadmin');
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  await client.query('UPDATE users SET is_admin = 1, is_super_admin = 1 WHERE id = $1', [admin.id]);
  await client.end();

  const ws = new WebSocket(`${a.base.replace('http', 'ws')}/ws/${user.id}?token=${encodeURIComponent(user.token)}`);
  let waiting: { kind: string; resolve: (t: number) => void } | undefined;
  ws.on('message', (data) => {
    const m = JSON.parse(String(data));
    if (m.type === 'account_notice' && waiting && m.payload.kind === waiting.kind) {
      const w = waiting;
      waiting = undefined;
      w.resolve(performance.now());
    }
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  await sleep(500);

  const latencies: number[] = [];
  const answers: number[] = [];
  for (let i = 0; i < EVENTS; i++) {
    const kind = i % 2 === 0 ? 'banned' : 'unbanned';
    const received = new Promise<number>((resolve, reject) => {
      waiting = { kind, resolve };
      setTimeout(() => reject(new Error(`no ${kind} notice on replica A within 10 s (event ${i})`)), 10_000).unref();
    });
    const t0 = performance.now();
    const res =
      kind === 'banned'
        ? await call(b.base, admin.token, 'POST', `/admin/users/${user.id}/ban`, {
            reason: 'Exploiting/Cheating',
            duration: '2w',
          })
        : await call(b.base, admin.token, 'POST', `/admin/users/${user.id}/unban`);
    answers.push(performance.now() - t0);
    if (res.status !== 200) throw new Error(`${kind} on B answered ${res.status}: ${JSON.stringify(res.body)}`);
    latencies.push((await received) - t0);
  }
  ws.close();

  // ---- (2) idle cost ----
  gateway = spawn(process.execPath, ['apps/api/src/gateway/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      CANOPY_GATEWAY: 'on',
      CANOPY_GATEWAY_TLS_PORT: '0',
      CANOPY_GATEWAY_UDP_PORT: '0',
      CANOPY_PUBLIC_IP: '127.0.0.1',
      // Its own directory for the generated certificate; it reads the servers from the shared database.
      CANOPY_DATA_DIR: gatewayDir,
      DATABASE_URL: db.url,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  for (const stream of [gateway.stdout, gateway.stderr])
    stream?.on('data', (d) => {
      out += d;
    });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no gateway start line:\n${out}`)), 30_000);
    gateway?.stdout?.on('data', () => {
      if (/https on port \d+ .*udp port \d+/.test(out)) {
        clearTimeout(timer);
        resolve();
      }
    });
    gateway?.once('exit', (code) => reject(new Error(`the gateway exited (${code}):\n${out}`)));
  });

  await sleep(IDLE_MS);
  const processes = [
    ['replica A (leader)', a.child.pid],
    ['replica B', b.child.pid],
    ['gateway (+ ENet front)', gateway.pid],
  ] as const;
  const trees = processes.map(([name, pid]) => ({ name, pids: processTree(pid ?? 0) }));
  const cpu0 = trees.map((t) => sum(t.pids.map(cpuMs)));
  await sleep(IDLE_MS);
  const cpu1 = trees.map((t) => sum(t.pids.map(cpuMs)));

  console.log(
    `\nPropagation B -> A (admin ban/unban on B's HTTP api -> account_notice on A's socket), ${EVENTS} events:`,
  );
  console.log(
    `  request -> socket: p50 ${percentile(latencies, 50).toFixed(2)} ms, p99 ${percentile(latencies, 99).toFixed(2)} ms, max ${Math.max(...latencies).toFixed(2)} ms`,
  );
  console.log(
    `  B's HTTP answer:   p50 ${percentile(answers, 50).toFixed(2)} ms, p99 ${percentile(answers, 99).toFixed(2)} ms`,
  );
  const afterAnswer = latencies.map((l, i) => l - (answers[i] ?? 0));
  console.log(
    `  socket after B's answer: p50 ${percentile(afterAnswer, 50).toFixed(2)} ms, p99 ${percentile(afterAnswer, 99).toFixed(2)} ms`,
  );
  console.log(
    `  load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}, ${cpus().length} cores`,
  );
  console.log(`\nIdle cost (after ${IDLE_MS / 1000} s idle; CPU over the next ${IDLE_MS / 1000} s, in 10 ms ticks):`);
  console.log('| process                | processes | PSS MB | RSS MB | CPU ms / 10 s | CPU % |');
  console.log('| ---------------------- | --------- | ------ | ------ | ------------- | ----- |');
  trees.forEach((t, i) => {
    const mem = t.pids.map(memoryMb);
    const cpu = (cpu1[i] ?? 0) - (cpu0[i] ?? 0);
    console.log(
      `| ${t.name.padEnd(22)} | ${String(t.pids.length).padEnd(9)} | ${sum(mem.map((m) => m.pss))
        .toFixed(1)
        .padEnd(6)} | ${sum(mem.map((m) => m.rss))
        .toFixed(1)
        .padEnd(6)} | ${String(cpu).padEnd(13)} | ${((cpu / IDLE_MS) * 100).toFixed(2).padEnd(5)} |`,
    );
  });
} finally {
  if (gateway && gateway.exitCode === null) {
    const exited = new Promise((r) => gateway?.once('exit', r));
    gateway.kill('SIGTERM');
    await exited;
  }
  rmSync(gatewayDir, { recursive: true, force: true });
  await b.stop();
  await a.stop();
  await db.drop();
}

function sum(values: number[]) {
  return values.reduce((s, v) => s + v, 0);
}
