// Sign-in, then GET /users/{id}/profile under load on SQLite, beside a bare Node http server.
// Run: npm run bench:profile   (env: RATE=500 BENCH_SECONDS=10 CONCURRENCY=32)
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixedRate, type LoadResult, maxThroughput } from './lib/load.ts';

const RATE = Number(process.env.RATE ?? 500);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 32);
const root = new URL('..', import.meta.url).pathname;

/** Starts a server process and resolves with its port once it says it listens. */
function launch(
  args: string[],
  env: Record<string, string>,
  pattern: RegExp,
): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d) => {
      out += d;
      const m = pattern.exec(out);
      if (m) resolve({ child, port: Number(m[1]) });
    });
    child.stderr?.on('data', (d) => process.stderr.write(d));
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
}

async function signIn(base: string) {
  const approve = await fetch(
    `${base}/dev-discord/oauth2/approve?username=benchuser&redirect_uri=${encodeURIComponent(`${base}/`)}`,
    { redirect: 'manual' },
  );
  const accessToken = new URLSearchParams(new URL(approve.headers.get('location') ?? '').hash.slice(1)).get(
    'access_token',
  );
  const login = await (
    await fetch(`${base}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ accessToken }),
    })
  ).json();
  const headers = { authorization: `Bearer ${login.sessionToken}`, 'content-type': 'application/json' };
  await fetch(`${base}/register`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ discordId: login.user.id, discordUsername: 'benchuser', growId: 'BenchUser' }),
  });
  return { id: login.user.id as string, token: login.sessionToken as string };
}

const row = (name: string, r: LoadResult) =>
  `${name.padEnd(28)} ${r.rps.toFixed(0).padStart(7)} req/s  p50 ${r.p50.toFixed(2).padStart(6)} ms  p99 ${r.p99.toFixed(2).padStart(6)} ms  max ${r.max.toFixed(1).padStart(6)} ms  errors ${r.errors}`;

const dataDir = mkdtempSync(join(tmpdir(), 'canopy-bench-'));
const api = await launch(
  ['apps/api/src/main.ts'],
  { PORT: '0', HOST: '127.0.0.1', CANOPY_DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_ENV: 'development' },
  /localhost:(\d+)/,
);
const bare = await launch(['bench/lib/bare-server.ts'], {}, /listening (\d+)/);
try {
  const base = `http://127.0.0.1:${api.port}`;
  const { id, token } = await signIn(base);
  const profileUrl = `${base}/users/${id}/profile`;
  const bareUrl = `http://127.0.0.1:${bare.port}/`;
  const headers = { authorization: `Bearer ${token}`, accept: 'application/json' };

  // Warm up both (JIT, SQLite page cache).
  await maxThroughput(profileUrl, headers, 8, 2);
  await maxThroughput(bareUrl, headers, 8, 2);

  console.log(`Node ${process.version}, ${SECONDS}s per run, SQLite, one api process, loopback\n`);
  console.log(`-- fixed rate ${RATE} req/s (open loop)`);
  const pf = await fixedRate(profileUrl, headers, RATE, SECONDS);
  const bf = await fixedRate(bareUrl, headers, RATE, SECONDS);
  console.log(row('GET /users/{id}/profile', pf));
  console.log(row('bare node:http fixed JSON', bf));
  console.log(`-- max throughput, ${CONCURRENCY} concurrent clients (closed loop)`);
  const pm = await maxThroughput(profileUrl, headers, CONCURRENCY, SECONDS);
  const bm = await maxThroughput(bareUrl, headers, CONCURRENCY, SECONDS);
  console.log(row('GET /users/{id}/profile', pm));
  console.log(row('bare node:http fixed JSON', bm));
  console.log(`\nprofile / bare throughput ratio: ${(pm.rps / bm.rps).toFixed(2)}`);
  console.log(
    `goal: profile p99 < 10 ms at ${RATE} req/s -> ${pf.p99 < 10 && pf.errors === 0 ? 'met' : 'NOT met'} (p99 ${pf.p99.toFixed(2)} ms)`,
  );
} finally {
  api.child.kill('SIGTERM');
  bare.child.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
}
