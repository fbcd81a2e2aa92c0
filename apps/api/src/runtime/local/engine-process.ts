import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { ENGINE_LOG_LINE, ENGINE_READY_MESSAGE, engineEnv, type engineStateFileSchema } from '@canopy/contract';
import { ENGINE_NODE_ENV, ENGINE_NODE_FLAGS } from '@canopy/engine';
import type { z } from 'zod';
import { ControlClient } from '../control-client.ts';
import { memoryFlags } from './memory.ts';
import { pidAlive, signalPid } from './pids.ts';

/** The ready message of an engine's INFO line, or null (formats from the contract). */
function readyMessage(line: string) {
  const log = ENGINE_LOG_LINE.exec(line);
  return log?.[2] === 'INFO' ? ENGINE_READY_MESSAGE.exec(log[3] ?? '') : null;
}

export interface ExitInfo {
  code: number | null;
  signal: string | null;
}

/** What the engine wrote into `<data-dir>/engine.json` while running. */
export type EngineStateFile = z.infer<typeof engineStateFileSchema>;

/**
 * Where an engine fetches the operator's item database by version (docs/engine-files-api.md): the api's internal
 * route, which answers only to this server's control secret.
 */
export interface EngineItems {
  url: string;
  /** The sha256 (hex) of the operator's items.dat. */
  version: string;
  serverId: string;
}

/**
 * What an engine sees of the environment: the api's own secrets (session key, database URL, Discord) stay
 * out of processes that handle players' network traffic.
 */
function engineEnvironment(secret: string, compileCache: string, items: EngineItems | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...ENGINE_NODE_ENV, [engineEnv.secret]: secret, NODE_COMPILE_CACHE: compileCache };
  if (items) {
    env[engineEnv.itemsUrl] = items.url;
    env[engineEnv.itemsVersion] = items.version;
    env[engineEnv.serverId] = items.serverId;
  }
  // The game CDN setting (checked by the api's config at start) reaches every engine as it is.
  for (const key of ['PATH', 'HOME', 'TMPDIR', 'TZ', 'LANG', 'NODE_OPTIONS', engineEnv.cdnHost, engineEnv.cdnPath])
    if (process.env[key] !== undefined) env[key] = process.env[key];
  return env;
}

/** The warm-up of each compile cache directory and set of flags, shared by every start that comes while it runs. */
const warmups = new Map<string, Promise<void>>();
/** A warm-up that takes longer is given up: the engine then starts anyway (best effort, see below). */
const WARM_TIMEOUT_MS = 30_000;

/**
 * Fills the compile cache before the first engine of this api process starts (`--warm-compile-cache` loads
 * every engine module under the engines' flags and environment, then exits): an engine that finds its cache
 * cold strips TypeScript itself and keeps about 20 MB more for its whole life. Once per cache directory, in a
 * child process the api waits for without blocking its event loop (about 0.2 s, 0.8 s when the cache is empty).
 * Best effort: an engine that cannot warm starts anyway.
 */
function warmCompileCache(entry: string, compileCache: string, flags: readonly string[]): Promise<void> {
  // Keyed by the flags too: V8 files its cache under a hash of them, and each plan's heap limit is a flag (today
  // --max-old-space-size does not enter that hash, so the second warm-up finds the cache full; ADR 0029).
  const key = `${compileCache}\0${flags.join(' ')}`;
  let warmup = warmups.get(key);
  if (!warmup) {
    warmup = new Promise<void>((resolve) => {
      const child = spawn(process.execPath, [...flags, entry, '--warm-compile-cache'], {
        env: engineEnvironment('', compileCache, undefined),
        stdio: 'ignore',
        timeout: WARM_TIMEOUT_MS,
      });
      child.on('error', () => resolve());
      child.on('exit', () => resolve());
    });
    warmups.set(key, warmup);
  }
  return warmup;
}

/**
 * One engine OS process, either spawned here or adopted after an api restart. Adopted engines are
 * followed over their control API (console stream, liveness by pid) since their stdio is gone.
 */
export class EngineProcess {
  readonly pid: number;
  control: ControlClient | null = null;
  version = 'N/A';
  private child: ChildProcess | null;
  private exitInfo: ExitInfo | null = null;
  private readonly exitWaiters: Array<(info: ExitInfo) => void> = [];
  private readonly lineListeners: Array<(line: string) => void> = [];
  private readonly abort = new AbortController();
  private readyResolve: (() => void) | null = null;

  private constructor(pid: number, child: ChildProcess | null) {
    this.pid = pid;
    this.child = child;
  }

  /** Starts an engine process in its own process group so it can outlive the api. */
  static async spawn(opts: {
    entry: string;
    dataDir: string;
    gamePort: number;
    secret: string;
    compileCacheDir: string;
    /** Offer the benchmark-only console commands (the api was started for a benchmark). */
    benchCommands?: boolean;
    /** The operator's item database by version; undefined: the engine's own choice (its items.dat, the bundled one). */
    items?: EngineItems;
    /** The engine's memory ceiling in MB (its owner's plan), which sets its heap limit; null: none. */
    memoryLimitMB?: number | null;
    /** A files-only engine (docs/engine-files-api.md): the control API's file routes, no game, no world. */
    filesOnly?: boolean;
  }): Promise<EngineProcess> {
    // Flags for a small idle engine (packages/engine/src/node-flags.ts) and its heap limit; the warm-up uses the same.
    const flags = [...ENGINE_NODE_FLAGS, ...memoryFlags(opts.memoryLimitMB ?? null)];
    await warmCompileCache(opts.entry, opts.compileCacheDir, flags);
    const gamePort = opts.filesOnly ? '0' : String(opts.gamePort);
    const child = spawn(
      process.execPath,
      [
        ...flags,
        opts.entry,
        ...['--data-dir', opts.dataDir, '--game-port', gamePort, '--control-port', '0'],
        ...(opts.filesOnly ? ['--files-only'] : []),
        ...(opts.benchCommands ? ['--bench-commands'] : []),
      ],
      {
        // The compile cache, shared by all engines, saves each start the work of stripping TypeScript.
        env: engineEnvironment(opts.secret, opts.compileCacheDir, opts.filesOnly ? undefined : opts.items),
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
      },
    );
    child.on('error', () => {}); // a failed spawn also arrives as the exit below (or no pid at all)
    if (!child.pid) throw new Error('engine process could not be started');
    const engine = new EngineProcess(child.pid, child);
    for (const stream of [child.stdout, child.stderr])
      if (stream) createInterface({ input: stream }).on('line', (line) => engine.onLine(line, opts.secret));
    child.stdin?.on('error', () => {}); // a dying engine closes its stdin; nothing to do about it
    child.on('exit', (code, signal) => engine.exited({ code, signal }));
    return engine;
  }

  /** Takes over an engine left running by a previous api process; null when it is not really there. */
  static async adopt(state: EngineStateFile, secret: string): Promise<EngineProcess | null> {
    if (!pidAlive(state.pid)) return null;
    const control = new ControlClient(state.controlHost, state.controlPort, secret);
    try {
      const stats = await control.stats();
      const engine = new EngineProcess(state.pid, null);
      engine.control = control;
      engine.version = stats.version;
      engine.watchAdopted();
      return engine;
    } catch {
      return null;
    }
  }

  get adopted() {
    return this.child === null;
  }

  get running() {
    return this.exitInfo === null;
  }

  onLineReceived(listener: (line: string) => void) {
    this.lineListeners.push(listener);
  }

  /** Resolves when the engine has printed its ready line; rejects on exit or timeout. */
  waitReady(timeoutMs: number): Promise<void> {
    if (this.control) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`not ready within ${timeoutMs} ms`)), timeoutMs);
      this.readyResolve = () => {
        clearTimeout(timer);
        resolve();
      };
      this.waitExit().then((info) => {
        clearTimeout(timer);
        reject(new Error(`exited before ready (code ${info.code ?? info.signal})`));
      });
    });
  }

  waitExit(): Promise<ExitInfo> {
    if (this.exitInfo) return Promise.resolve(this.exitInfo);
    return new Promise((resolve) => this.exitWaiters.push(resolve));
  }

  /** Asks for a clean stop, then SIGTERM, then SIGKILL, each after its timeout. */
  async stop(graceMs: number, killMs: number): Promise<ExitInfo> {
    if (!this.running) return this.exitInfo as ExitInfo;
    await this.sendCommand('stop').catch(() => this.signal('SIGTERM'));
    if (await this.exitWithin(graceMs)) return this.exitInfo as ExitInfo;
    this.signal('SIGTERM');
    if (await this.exitWithin(killMs)) return this.exitInfo as ExitInfo;
    this.signal('SIGKILL');
    return this.waitExit();
  }

  /** Types a console command: on stdin for our child, over the control API for an adopted engine. */
  async sendCommand(command: string): Promise<void> {
    if (this.child?.stdin?.writable) {
      this.child.stdin.write(`${command}\n`);
      return;
    }
    if (!this.control) throw new Error('engine is not ready');
    await this.control.request('POST', '/console', { command });
  }

  signal(sig: NodeJS.Signals) {
    signalPid(this.pid, sig);
  }

  private async exitWithin(ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((r) => {
      timer = setTimeout(() => r(false), ms);
    });
    const done = await Promise.race([this.waitExit().then(() => true), timeout]);
    clearTimeout(timer);
    return done;
  }

  private onLine(line: string, secret: string) {
    const ready = !this.control && readyMessage(line);
    if (ready) {
      this.control = new ControlClient(ready[1] ?? '127.0.0.1', Number(ready[2]), secret);
      this.version = ready[4] ?? 'unknown';
    }
    for (const l of this.lineListeners) l(line);
    if (ready) this.readyResolve?.();
  }

  private exited(info: ExitInfo) {
    if (this.exitInfo) return;
    this.exitInfo = info;
    this.abort.abort();
    for (const w of this.exitWaiters.splice(0)) w(info);
  }

  /** Adopted engines: console from the stream, exit noticed by pid (we are not their parent). */
  private watchAdopted() {
    const control = this.control as ControlClient;
    let lastSeq = 0;
    const follow = async () => {
      while (this.running) {
        await control
          .followConsole(
            lastSeq,
            (seq, line) => {
              lastSeq = seq;
              for (const l of this.lineListeners) l(line);
            },
            this.abort.signal,
          )
          .catch(() => {});
        if (this.running) await new Promise((r) => setTimeout(r, 250));
      }
    };
    void follow();
    const timer = setInterval(() => {
      if (!pidAlive(this.pid)) {
        clearInterval(timer);
        this.exited({ code: null, signal: null });
      }
    }, 500);
    timer.unref();
  }
}
