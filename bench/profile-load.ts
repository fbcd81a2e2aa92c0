// Sign-in, then GET /users/{id}/profile under load on SQLite, beside a bare Node http server.
// Run: npm run bench:profile   (env: RATE=500 BENCH_SECONDS=10 CONCURRENCY=32)
import { spawn } from 'node:child_process';
import { benchUser, startBenchApi } from './lib/api-process.ts';
import { fixedRate, type LoadResult, maxThroughput } from './lib/load.ts';

const RATE = Number(process.env.RATE ?? 500);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 32);

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

const row = (name: string, r: LoadResult) =>
  `${name.padEnd(28)} ${r.rps.toFixed(0).padStart(7)} req/s  p50 ${r.p50.toFixed(2).padStart(6)} ms  p99 ${r.p99.toFixed(2).padStart(6)} ms  max ${r.max.toFixed(1).padStart(6)} ms  errors ${r.errors}`;

const api = await startBenchApi();
const bare = await startBare();
try {
  const { id, token } = await benchUser(api.base, 'benchuser');
  const profileUrl = `${api.base}/users/${id}/profile`;
  const headers = { authorization: `Bearer ${token}`, accept: 'application/json' };

  // Warm up both (JIT, SQLite page cache).
  await maxThroughput(profileUrl, headers, 8, 2);
  await maxThroughput(bare.url, headers, 8, 2);

  console.log(`Node ${process.version}, ${SECONDS}s per run, SQLite, one api process, loopback\n`);
  console.log(`-- fixed rate ${RATE} req/s (open loop)`);
  const pf = await fixedRate(profileUrl, headers, RATE, SECONDS);
  const bf = await fixedRate(bare.url, headers, RATE, SECONDS);
  console.log(row('GET /users/{id}/profile', pf));
  console.log(row('bare node:http fixed JSON', bf));
  console.log(`-- max throughput, ${CONCURRENCY} concurrent clients (closed loop)`);
  const pm = await maxThroughput(profileUrl, headers, CONCURRENCY, SECONDS);
  const bm = await maxThroughput(bare.url, headers, CONCURRENCY, SECONDS);
  console.log(row('GET /users/{id}/profile', pm));
  console.log(row('bare node:http fixed JSON', bm));
  console.log(`\nprofile / bare throughput ratio: ${(pm.rps / bm.rps).toFixed(2)}`);
  console.log(
    `goal: profile p99 < 10 ms at ${RATE} req/s -> ${pf.p99 < 10 && pf.errors === 0 ? 'met' : 'NOT met'} (p99 ${pf.p99.toFixed(2)} ms)`,
  );
} finally {
  bare.child.kill('SIGTERM');
  await api.stop();
}
