// Engine speed and size: spawn-to-READY time, idle memory (one engine, and PSS per engine with 50 running as
// the api runs them), and world/player list latency with 10,000 worlds and 10,000 players.
// Goals: ready < 300 ms, idle PSS per engine <= 20 MB with 50 running, list p99 < 20 ms.
// Run: node bench/engine.ts
//   (env: BENCH_WORLDS=10000 BENCH_PLAYERS=10000 BENCH_REQUESTS=500 BENCH_STARTS=10 BENCH_ENGINES=50)
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { cpus } from 'node:os';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { ENGINE_NODE_ENV, ENGINE_NODE_FLAGS } from '../packages/engine/src/index.ts';
import {
  ENGINE_MAIN,
  type RunningEngine,
  removeDataDir,
  startEngine,
  stopEngine,
  TEST_SECRET,
  tempDataDir,
} from '../packages/engine/test/support/engine-process.ts';

const WORLDS = Number(process.env.BENCH_WORLDS ?? 10_000);
const PLAYERS = Number(process.env.BENCH_PLAYERS ?? 10_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 500);
const STARTS = Number(process.env.BENCH_STARTS ?? 10);
const ENGINES = Number(process.env.BENCH_ENGINES ?? 50);
const WIDTH = 58;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const stats = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return { p50: percentile(s, 50), p99: percentile(s, 99), max: s.at(-1) ?? 0, min: s[0] ?? 0 };
};
const ms = (n: number) => `${n.toFixed(1)} ms`;

/** Resident, proportional and private memory of a process, in MB, from /proc. */
function memory(pid: number) {
  const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(rollup)?.[1] ?? 0);
  return { rss: kb('Rss') / 1024, pss: kb('Pss') / 1024, private: (kb('Private_Clean') + kb('Private_Dirty')) / 1024 };
}
const mem = (m: ReturnType<typeof memory>) =>
  `RSS ${m.rss.toFixed(1)} MB  PSS ${m.pss.toFixed(1)} MB  private ${m.private.toFixed(1)} MB`;

async function timeStarts(label: string, env: Record<string, string | undefined>) {
  const times: number[] = [];
  const dataDir = tempDataDir();
  for (let i = 0; i < STARTS; i++) {
    const started = performance.now();
    const engine = await startEngine({ dataDir, env });
    times.push(performance.now() - started);
    await stopEngine(engine);
  }
  removeDataDir(dataDir);
  const s = stats(times);
  console.log(
    `${label.padEnd(WIDTH)} median ${ms(s.p50)}  min ${ms(s.min)}  max ${ms(s.max)}  (first start ${ms(times[0] ?? 0)})`,
  );
}

async function idleMemory(label: string, env: Record<string, string | undefined>) {
  const engine = await startEngine({ env });
  await sleep(3000); // items.dat is read after READY; let the start's garbage settle
  console.log(`${label.padEnd(WIDTH)} ${mem(memory(engine.pid))}`);
  await stopEngine(engine);
  removeDataDir(engine.dataDir);
}

/** Spawns an engine the way the api's local runtime does (its flags and environment); resolves at READY. */
async function spawnLikeTheApi(cache: string) {
  const dataDir = tempDataDir();
  const child = spawn(
    process.execPath,
    [...ENGINE_NODE_FLAGS, ENGINE_MAIN, '--data-dir', dataDir, '--game-port', '0', '--control-port', '0'],
    {
      env: { ...ENGINE_NODE_ENV, PATH: process.env.PATH, CANOPY_ENGINE_SECRET: TEST_SECRET, NODE_COMPILE_CACHE: cache },
      stdio: ['pipe', 'pipe', 'ignore'],
    },
  );
  const exited = new Promise((resolve) => child.on('close', resolve));
  for await (const line of createInterface({ input: child.stdout })) if (/\[INFO\] READY /.test(line)) break;
  child.stdout.resume();
  return {
    pid: child.pid as number,
    async stop() {
      child.stdin.write('stop\n');
      await exited;
      removeDataDir(dataDir);
    },
  };
}

/** Idle memory per engine with `count` engines running side by side: PSS splits what they share. */
async function manyEngines(cache: string, count: number) {
  // What the api does before its first engine (apps/api/src/runtime/local/engine-process.ts).
  spawnSync(process.execPath, [...ENGINE_NODE_FLAGS, ENGINE_MAIN, '--warm-compile-cache'], {
    env: { ...ENGINE_NODE_ENV, PATH: process.env.PATH, NODE_COMPILE_CACHE: cache },
  });
  const engines = [];
  for (let i = 0; i < count; i++) engines.push(await spawnLikeTheApi(cache));
  await sleep(5000); // items.dat is read after READY; let the start's garbage settle
  const all = engines.map((e) => memory(e.pid));
  const mean = (k: 'rss' | 'pss' | 'private') => all.reduce((sum, m) => sum + m[k], 0) / all.length;
  const pss = mean('pss');
  console.log(
    `${`idle, ${count} engines as the api runs them, per engine`.padEnd(WIDTH)} PSS ${pss.toFixed(1)} MB  ` +
      `RSS ${mean('rss').toFixed(1)} MB  private ${mean('private').toFixed(1)} MB  ${pss <= 20 ? 'ok' : 'OVER 20 MB'}`,
  );
  await Promise.all(engines.map((e) => e.stop()));
}

function get(agent: http.Agent, url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    http
      .get(url, { agent, headers: { authorization: `Bearer ${TEST_SECRET}` } }, (res) => {
        res.resume();
        res.on('end', () =>
          res.statusCode === 200 ? resolve(performance.now() - started) : reject(new Error(`${res.statusCode} ${url}`)),
        );
      })
      .on('error', reject);
  });
}

async function latency(engine: RunningEngine, path: (i: number) => string, label: string) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  for (let i = 0; i < 20; i++) await get(agent, engine.url + path(i)); // warm-up
  const from = engine.lines.length;
  const times: number[] = [];
  for (let i = 0; i < REQUESTS; i++) times.push(await get(agent, engine.url + path(i)));
  agent.destroy();
  // The engine runs with --debug: its own time per request, from accepting it to handing the answer to the socket.
  const pathname = path(0).split('?')[0] ?? '';
  const server = engine.lines
    .slice(from)
    .map((l) => new RegExp(`control GET ${pathname} 200 ([\\d.]+)ms$`).exec(l)?.[1])
    .filter((v): v is string => v !== undefined)
    .map(Number);
  const s = stats(times);
  const e = stats(server);
  console.log(
    `${label.padEnd(WIDTH)} p50 ${ms(s.p50)}  p99 ${ms(s.p99)}  max ${ms(s.max)}  ${s.p99 < 20 ? 'ok' : 'OVER 20 ms'}` +
      `   (in the engine: p50 ${ms(e.p50)}  p99 ${ms(e.p99)})`,
  );
}

console.log(
  `Node ${process.version}, ${cpus().length} CPUs, ${STARTS} starts per variant, ${REQUESTS} sequential requests per list call\n`,
);
const cache = tempDataDir();
// Three ways an engine can start: with no compile cache; the default (main.ts turns Node's compile
// cache on, in the OS temp dir, once main.ts itself was type-stripped); and NODE_COMPILE_CACHE set by
// whoever spawns it (then not even main.ts is stripped, so Node's TypeScript stripper never loads).
const variants: [string, Record<string, string | undefined>][] = [
  ['no compile cache', { NODE_DISABLE_COMPILE_CACHE: '1', NODE_COMPILE_CACHE: undefined }],
  ['default (main.ts enables the cache)', { NODE_COMPILE_CACHE: undefined }],
  ['NODE_COMPILE_CACHE set by the spawner', { NODE_COMPILE_CACHE: cache }],
];
for (const [label, env] of variants) await timeStarts(`spawn -> READY, ${label}`, env);
for (const [label, env] of variants) await idleMemory(`idle memory, ${label}`, env);
if (ENGINES > 0) {
  const apiCache = tempDataDir();
  await manyEngines(apiCache, ENGINES);
  removeDataDir(apiCache);
}

const generation = performance.now();
const dataDir = tempDataDir();
const generator = await startEngine({
  dataDir,
  args: ['--data-dir', dataDir, '--game-port', '0', '--control-port', '0'].concat([
    '--sample-worlds',
    String(WORLDS),
    '--sample-players',
    String(PLAYERS),
  ]),
  env: { NODE_COMPILE_CACHE: cache },
});
console.log(
  `\nsample data: ${WORLDS} worlds + ${PLAYERS} players generated, READY after ${ms(performance.now() - generation)}`,
);
await stopEngine(generator);
// Measure a fresh engine on that data, as a hosted server restarted with it would be.
const restart = performance.now();
const big = await startEngine({
  dataDir,
  args: ['--data-dir', dataDir, '--game-port', '0', '--control-port', '0', '--debug'],
  env: { NODE_COMPILE_CACHE: cache },
});
console.log(`spawn -> READY on that data: ${ms(performance.now() - restart)}`);
const page = (n: number) => (i: number) => `offset=${(i * 97) % Math.max(1, n - 10)}&limit=10`;
await latency(big, () => '/worlds', `GET /worlds (all ${WORLDS})`);
await latency(big, (i) => `/worlds?${page(WORLDS)(i)}`, 'GET /worlds?offset=..&limit=10');
await latency(
  big,
  (i) => `/worlds?search=${['farm', 'dirt', 'x', 'buy1'][i % 4]}&limit=10`,
  'GET /worlds?search=..&limit=10',
);
await latency(big, () => '/players', `GET /players (all ${PLAYERS})`);
await latency(big, (i) => `/players?${page(PLAYERS)(i)}`, 'GET /players?offset=..&limit=10');
await latency(
  big,
  (i) => `/players?search=${['ninja', 'dark', 'q', '77'][i % 4]}&limit=10`,
  'GET /players?search=..&limit=10',
);
const names: string[] = (await big.request('GET', '/worlds?limit=50')).body.worlds.map((w: { name: string }) => w.name);
await latency(big, (i) => `/worlds/${names[i % names.length]}`, 'GET /worlds/:name (a 6,000-tile world)');
console.log(`memory after the list runs: ${mem(memory(big.pid))}`);
await stopEngine(big);
removeDataDir(dataDir);
removeDataDir(cache);
