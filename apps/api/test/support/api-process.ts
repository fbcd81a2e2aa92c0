import { type ChildProcess, spawn } from 'node:child_process';

// One way to run the api as its own process (tests that kill or restart it, the e2e app, the benchmarks):
// `apps/api/src/main.ts` started as `npm start` runs it, with what it prints kept for waits and failure messages.

const root = new URL('../../../../', import.meta.url).pathname;

/** A spawned api process and everything it has printed so far (stdout, and stderr when piped). */
export interface ApiProcess {
  child: ChildProcess;
  output: () => string;
}

/**
 * Spawns `apps/api/src/main.ts` on `dataDir` with a free port on 127.0.0.1, SQLite, NODE_ENV=test and warn-level
 * logs; `env` is laid over that (and over this process's environment).
 */
export function spawnApiProcess(
  dataDir: string,
  env: Record<string, string>,
  stderr: 'pipe' | 'ignore' | 'inherit' = 'pipe',
): ApiProcess {
  const child = spawn(process.execPath, ['apps/api/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      CANOPY_DATA_DIR: dataDir,
      DATABASE_URL: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', stderr],
  });
  let out = '';
  // Registered before any caller's listener, so a caller reading output() on 'data' sees the chunk it was told of.
  child.stdout?.on('data', (d) => {
    out += d;
  });
  child.stderr?.on('data', (d) => {
    out += d;
  });
  return { child, output: () => out };
}

/**
 * The URL of the api's "running at" start line, or the exit code when the process stopped first; rejects when
 * `timeoutMs` (if given) passes with neither.
 */
export function startLine(proc: ApiProcess, timeoutMs?: number): Promise<{ url?: string; code?: number }> {
  return new Promise((resolve, reject) => {
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => reject(new Error(`no start line in ${timeoutMs / 1000} s:\n${proc.output()}`)), timeoutMs);
    const check = () => {
      const m = /running at (https?:\/\/localhost:\d+)/.exec(proc.output());
      if (m?.[1]) {
        clearTimeout(timer);
        resolve({ url: m[1] });
      }
    };
    proc.child.stdout?.on('data', check);
    proc.child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1 });
    });
  });
}
