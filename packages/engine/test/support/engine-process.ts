import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ENGINE_LOG_LINE, ENGINE_READY_MESSAGE } from '@canopy/contract';

export const ENGINE_MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
export const TEST_SECRET = 'test-secret-0123456789abcdef';

// biome-ignore lint/suspicious/noExplicitAny: tests read JSON bodies loosely and assert on them
export type Json = any;

/** A spawned engine process with its output collected line by line. */
export interface EngineProcess {
  child: ChildProcessWithoutNullStreams;
  dataDir: string;
  /** Every stdout line so far. */
  lines: string[];
  stderr(): string;
  /** Resolves with the first line (from index `from`) matching `pattern`; rejects if the process exits first. */
  waitForLine(pattern: RegExp, from?: number): Promise<string>;
  /** Resolves with the exit status. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** A running engine: its READY line parsed, and a JSON client for its control API. */
export interface RunningEngine extends EngineProcess {
  url: string;
  gamePort: number;
  pid: number;
  version: string;
  request(method: string, path: string, body?: unknown, secret?: string): Promise<{ status: number; body: Json }>;
  /** Types a line on the engine's stdin. */
  type(line: string): void;
}

const running = new Set<ChildProcessWithoutNullStreams>();

/** SIGKILLs every engine this process spawned that is still running (for a test file's after hook). */
export function killAll(): void {
  for (const child of running) child.kill('SIGKILL');
}

/** A fresh temporary data directory. */
export function tempDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'canopy-engine-test-'));
}

/** Removes a data directory made by tempDataDir. */
export function removeDataDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** For a test file: returns a maker of temporary data directories; after the file's tests every engine still
 *  running is killed and the directories made are removed. */
export function dataDirsForFile(): () => string {
  const dirs: string[] = [];
  after(() => {
    killAll();
    for (const d of dirs) removeDataDir(d);
  });
  return () => {
    const d = tempDataDir();
    dirs.push(d);
    return d;
  };
}

/** Spawns the engine program without waiting for it to be ready. */
export function spawnEngine(
  opts: { dataDir?: string; args?: string[]; env?: Record<string, string | undefined> } = {},
): EngineProcess {
  // With explicit args the caller names the data directory (or means to leave it out).
  const dataDir = opts.dataDir ?? (opts.args ? '' : tempDataDir());
  const args = opts.args ?? ['--data-dir', dataDir, '--game-port', '0', '--control-port', '0'];
  const env: Record<string, string | undefined> = { ...process.env, CANOPY_ENGINE_SECRET: TEST_SECRET, ...opts.env };
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
  const child = spawn(process.execPath, [ENGINE_MAIN, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  running.add(child);
  child.on('exit', () => running.delete(child));
  const lines: string[] = [];
  const waiters = new Set<() => void>();
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  createInterface({ input: child.stdout }).on('line', (line) => {
    lines.push(line);
    for (const w of waiters) w();
  });
  let done = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => {
      done = true;
      for (const w of waiters) w();
      resolve({ code, signal });
    }),
  );
  const waitForLine = (pattern: RegExp, from = 0) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const found = lines.slice(from).find((l) => pattern.test(l));
        if (found !== undefined) {
          waiters.delete(check);
          resolve(found);
        } else if (done) {
          waiters.delete(check);
          reject(new Error(`engine exited before printing ${pattern}; output:\n${lines.join('\n')}\n${stderr}`));
        }
      };
      waiters.add(check);
      check();
    });
  return { child, dataDir, lines, stderr: () => stderr, waitForLine, exited };
}

/** Spawns the engine and waits for its READY line. */
export async function startEngine(
  opts: { dataDir?: string; args?: string[]; env?: Record<string, string | undefined> } = {},
): Promise<RunningEngine> {
  const proc = spawnEngine(opts);
  const ready = await proc.waitForLine(/\[INFO\] READY /);
  const message = ENGINE_LOG_LINE.exec(ready)?.[3] ?? '';
  const m = ENGINE_READY_MESSAGE.exec(message);
  if (!m) throw new Error(`unexpected ready line: ${ready}`);
  const url = `http://${m[1]}:${m[2]}`;
  return {
    ...proc,
    url,
    gamePort: Number(m[3]),
    version: m[4] ?? '',
    pid: Number(m[5]),
    async request(method, path, body, secret = TEST_SECRET) {
      const res = await fetch(url + path, {
        method,
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    },
    type(line) {
      proc.child.stdin.write(`${line}\n`);
    },
  };
}

/** Asks the engine to stop over the control API and waits for it to exit. */
export async function stopEngine(engine: RunningEngine) {
  if (engine.child.exitCode !== null || engine.child.signalCode !== null) return engine.exited;
  await engine.request('POST', '/stop').catch(() => {});
  return engine.exited;
}

/** Starts a files-only engine (docs/engine-files-api.md) on `dataDir` and waits for its READY line (game=0). */
export const startFilesOnlyEngine = (dataDir: string) =>
  startEngine({ dataDir, args: ['--files-only', '--data-dir', dataDir, '--control-port', '0'] });

/**
 * A test file's after hook: stops `engine` (when it started at all), SIGKILLs whatever else the file spawned, and
 * removes the engine's data directory and `dirs`.
 */
export async function tearDown(engine: RunningEngine | undefined, ...dirs: string[]): Promise<void> {
  if (engine) await stopEngine(engine);
  killAll();
  for (const dir of [engine?.dataDir ?? '', ...dirs]) if (dir) removeDataDir(dir);
}
