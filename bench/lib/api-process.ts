import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnApiProcess, startLine } from '../../apps/api/test/support/api-process.ts';

/** An api process on a throwaway data directory, for benchmarks. */
export interface BenchApi {
  base: string;
  dataDir: string;
  child: ChildProcess;
  /** What the api printed so far (its start lines: the gateway's port among them). */
  output(): string;
  stop(): Promise<void>;
}

/** Starts `apps/api/src/main.ts` and resolves once it prints its URL. */
export async function startBenchApi(env: Record<string, string> = {}): Promise<BenchApi> {
  const dataDir = mkdtempSync(join(tmpdir(), 'canopy-bench-'));
  const proc = spawnApiProcess(
    dataDir,
    {
      NODE_ENV: 'development',
      CANOPY_STOP_SERVERS_ON_EXIT: 'true',
      // Benches sign in hundreds of users from one address: the auth rate limits would refuse them.
      CANOPY_AUTH_RATE_LIMIT_PER_IP: '1000000',
      CANOPY_AUTH_RATE_LIMIT_PER_ACCOUNT: '1000000',
      // And open hundreds of sockets from it; bench/connection-flood.ts keeps the default cap.
      CANOPY_HTTP_CONNECTIONS_PER_IP: '1000000',
      ...env,
    },
    'inherit',
  );
  const { child, output } = proc;
  const { url, code } = await startLine(proc);
  if (!url) throw new Error(`api exited with ${code}: ${output()}`);
  const base = `http://127.0.0.1:${new URL(url).port}`;
  return {
    base,
    dataDir,
    child,
    output,
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Signs a development user in and registers them; returns the id and session token. */
export async function benchUser(base: string, username: string) {
  const approve = await fetch(
    `${base}/dev-discord/oauth2/approve?username=${username}&redirect_uri=${encodeURIComponent(`${base}/`)}`,
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
  const id = login.user.id as string;
  const token = login.sessionToken as string;
  await call(base, token, 'POST', '/register', { discordId: id, discordUsername: username, growId: username });
  return { id, token };
}

/** An authenticated JSON call. */
export async function call(base: string, token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(base + path, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

/** Pids of the engines running under an api's data directory (from their engine.json files). */
export function enginePids(dataDir: string): number[] {
  const dir = join(dataDir, 'servers');
  let ids: string[] = [];
  try {
    ids = readdirSync(dir);
  } catch {
    return [];
  }
  return ids.flatMap((id) => {
    try {
      return [JSON.parse(readFileSync(join(dir, id, 'engine.json'), 'utf8')).pid as number];
    } catch {
      return [];
    }
  });
}

/**
 * Memory of a process in MB (Linux /proc): RSS counts the shared Node binary in full for every process;
 * PSS splits shared pages between the processes that share them, so PSS sums to what the machine spends.
 */
export function memoryMb(pid: number): { rss: number; pss: number } {
  const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(rollup)?.[1] ?? 0);
  return { rss: kb('Rss') / 1024, pss: kb('Pss') / 1024 };
}

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ, 100 on Linux). */
const TICKS_PER_S = 100;

/** CPU time (user + system) a process has used so far, in ms (Linux /proc); 0 when the process is gone. */
export function cpuMs(pid: number): number {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return 0;
  }
  // Fields after the command name, which may hold spaces and ') ': utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_S;
}

export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

/** A process and all its descendants (from the parent pid in /proc/<pid>/stat). */
export function processTree(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const found = [pid];
  for (let i = 0; i < found.length; i++)
    for (const [child, parent] of parents) if (parent === found[i]) found.push(child);
  return found;
}
