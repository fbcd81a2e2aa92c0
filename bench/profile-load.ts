// Sign-in, then GET /users/{id}/profile under load on SQLite, beside a bare Node http server.
// Run: npm run bench:profile   (env: RATE=500 BENCH_SECONDS=10 CONCURRENCY=32 ROUNDS=3)
// Closed-loop rounds alternate api and bare so a busy machine weighs on both alike; medians are printed.
// CPU per request (from /proc) is the steadier figure when other work shares the machine.
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { benchUser, cpuMs, startBenchApi } from './lib/api-process.ts';
import { fixedRate, type LoadResult, maxThroughput } from './lib/load.ts';

const RATE = Number(process.env.RATE ?? 500);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 32);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
// Issue 12's goals for authenticated reads.
const GOAL_RATIO = 0.6;
const GOAL_P99_MS = 2;

/** The baseline server, a separate process like the api. */
async function startBare() {
  const child = spawn(process.execPath, [new URL('./lib/bare-server.ts', import.meta.url).pathname], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout?.on('data', (d) => {
      const m = /listening (\d+)/.exec(String(d));
      if (m) resolve(Number(m[1]));
    });
    child.on('exit', (code) => reject(new Error(`bare server exited with ${code}`)));
  });
  return { child, url: `http://127.0.0.1:${port}/` };
}

/** A load run with the CPU the serving process spent per answered request. */
async function measured(pid: number, run: () => Promise<LoadResult>) {
  const before = cpuMs(pid);
  const result = await run();
  return { ...result, cpuUs: ((cpuMs(pid) - before) * 1000) / Math.max(1, result.requests) };
}
type Measured = Awaited<ReturnType<typeof measured>>;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const row = (name: string, r: Measured) =>
  `${name.padEnd(28)} ${r.rps.toFixed(0).padStart(7)} req/s  p50 ${r.p50.toFixed(2).padStart(6)} ms  p99 ${r.p99.toFixed(2).padStart(6)} ms  max ${r.max.toFixed(1).padStart(6)} ms  cpu ${r.cpuUs.toFixed(0).padStart(4)} us/req  errors ${r.errors}`;

const api = await startBenchApi();
const bare = await startBare();
const apiPid = api.child.pid ?? 0;
const barePid = bare.child.pid ?? 0;
try {
  const { id, token } = await benchUser(api.base, 'benchuser');
  const profileUrl = `${api.base}/users/${id}/profile`;
  const headers = { authorization: `Bearer ${token}`, accept: 'application/json' };

  // Warm up both (JIT, SQLite page cache).
  await maxThroughput(profileUrl, headers, 8, 2);
  await maxThroughput(bare.url, headers, 8, 2);

  console.log(`Node ${process.version}, ${SECONDS}s per run, SQLite, one api process, loopback`);
  console.log(
    `load average before: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}\n`,
  );
  console.log(`-- fixed rate ${RATE} req/s (open loop)`);
  const pf = await measured(apiPid, () => fixedRate(profileUrl, headers, RATE, SECONDS));
  const bf = await measured(barePid, () => fixedRate(bare.url, headers, RATE, SECONDS));
  console.log(row('GET /users/{id}/profile', pf));
  console.log(row('bare node:http fixed JSON', bf));

  console.log(`-- max throughput, ${CONCURRENCY} concurrent clients (closed loop), ${ROUNDS} alternating rounds`);
  const ratios: number[] = [];
  const profiles: Measured[] = [];
  const bares: Measured[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const pm = await measured(apiPid, () => maxThroughput(profileUrl, headers, CONCURRENCY, SECONDS));
    const bm = await measured(barePid, () => maxThroughput(bare.url, headers, CONCURRENCY, SECONDS));
    profiles.push(pm);
    bares.push(bm);
    ratios.push(pm.rps / bm.rps);
    console.log(row(`GET /users/{id}/profile #${round}`, pm));
    console.log(row(`bare node:http fixed JSON #${round}`, bm));
  }
  const ratio = median(ratios);
  console.log(
    `\nmedians: profile ${median(profiles.map((r) => r.rps)).toFixed(0)} req/s (${median(profiles.map((r) => r.cpuUs)).toFixed(0)} us cpu/req), bare ${median(bares.map((r) => r.rps)).toFixed(0)} req/s (${median(bares.map((r) => r.cpuUs)).toFixed(0)} us cpu/req)`,
  );
  console.log(
    `profile / bare throughput ratio: ${ratio.toFixed(2)} (rounds: ${ratios.map((r) => r.toFixed(2)).join(', ')})`,
  );
  console.log(
    `load average after: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(
    `goal: throughput >= ${GOAL_RATIO}x bare -> ${ratio >= GOAL_RATIO ? 'met' : 'NOT met'} (${ratio.toFixed(2)}x)`,
  );
  console.log(
    `goal: profile p99 < ${GOAL_P99_MS} ms at ${RATE} req/s -> ${pf.p99 < GOAL_P99_MS && pf.errors === 0 ? 'met' : 'NOT met'} (p99 ${pf.p99.toFixed(2)} ms)`,
  );
} finally {
  bare.child.kill('SIGTERM');
  await api.stop();
}
