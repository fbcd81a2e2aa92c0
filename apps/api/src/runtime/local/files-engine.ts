// The files-only engine of one hosted server (docs/engine-files-api.md, ADR 0041): what answers the api's file calls
// while the server's real engine is not running. Started on the first call, stopped after an idle while, and
// held off (its calls in flight finished, then stopped) while the real engine runs or is being started or stopped.
import { ControlClient } from '../control-client.ts';
import type { FilesLease } from '../server-files.ts';
import { type HostedServerSpec, RuntimeBusyError } from '../types.ts';
import type { EngineProcess, EngineStateFile } from './engine-process.ts';
import { pidAlive, signalPid } from './pids.ts';

export interface FilesEngineDeps {
  /** Starts a files-only engine on the server's data directory. */
  spawn(): Promise<EngineProcess>;
  /** How long it stays up after its last call ended. */
  idleMs: number;
  timeouts: { startMs: number; stopMs: number; killMs: number };
}

/** Asks an engine to stop over its control API, then by signals after the timeouts; resolves once it exited. */
async function stopEngine(engine: EngineProcess, stopMs: number, killMs: number): Promise<void> {
  if (!engine.running) return;
  const asked = await engine.control?.request('POST', '/stop', undefined, 2000).then(
    () => true,
    () => false,
  );
  if (!asked) engine.signal('SIGTERM');
  await engine.stop(stopMs, killMs);
}

/** One server's files-only engine and the calls it is serving. */
export class FilesEngine {
  private readonly deps: FilesEngineDeps;
  private engine: EngineProcess | null = null;
  private starting: Promise<EngineProcess> | null = null;
  private stopping: Promise<void> = Promise.resolve();
  private inFlight = 0;
  private readonly drainWaiters: Array<() => void> = [];
  private idleTimer: NodeJS.Timeout | null = null;
  /** Set while the real engine runs (or starts, or stops), and for good once the server is removed. */
  private held = false;
  private closed = false;

  constructor(deps: FilesEngineDeps) {
    this.deps = deps;
  }

  /** The pid of the files-only engine while one runs (tests, and telling it from a stray one). */
  get pid(): number | null {
    return this.engine?.running ? this.engine.pid : null;
  }

  /** A control client for one call; refused (RuntimeBusyError) while held. Counted until released. */
  async acquire(): Promise<FilesLease> {
    if (this.closed) throw new RuntimeBusyError('server is being deleted');
    if (this.held) throw new RuntimeBusyError('the server is starting or stopping');
    // Counted before any await: a hold or an idle stop that comes meanwhile waits for this call.
    this.inFlight++;
    this.clearIdle();
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.done();
    };
    try {
      const engine = await this.running();
      if (!engine.control) throw new Error('the files-only engine has no control API');
      return { control: engine.control, release };
    } catch (error) {
      release();
      throw error;
    }
  }

  /**
   * Keeps files-only engines away while the real engine runs: new calls are refused, the calls in flight
   * finish, then the files-only engine stops. Call it under the power lock, before the real engine starts.
   */
  async hold(): Promise<void> {
    this.held = true;
    await this.drained();
    await this.stop();
  }

  /** The real engine is gone: file calls may start a files-only engine again. */
  release(): void {
    if (!this.closed) this.held = false;
  }

  /** For good (server removed, api shutting down): refuses new calls, waits for those in flight, stops it. */
  async close(): Promise<void> {
    this.closed = true;
    this.held = true;
    await this.drained();
    await this.stop();
  }

  private drained(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  private done() {
    this.inFlight--;
    if (this.inFlight > 0) return;
    for (const wake of this.drainWaiters.splice(0)) wake();
    if (!this.held && this.engine) {
      this.idleTimer = setTimeout(() => {
        this.idleTimer = null;
        if (this.inFlight === 0) void this.stop();
      }, this.deps.idleMs);
      this.idleTimer.unref();
    }
  }

  private clearIdle() {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  /** The running files-only engine, started when there is none (after a stop under way has finished). */
  private async running(): Promise<EngineProcess> {
    await this.stopping;
    if (this.engine?.running) return this.engine;
    this.starting ??= this.launch().finally(() => {
      this.starting = null;
    });
    return this.starting;
  }

  private async launch(): Promise<EngineProcess> {
    const engine = await this.deps.spawn();
    try {
      await engine.waitReady(this.deps.timeouts.startMs);
    } catch (error) {
      engine.signal('SIGKILL');
      await engine.waitExit();
      throw error;
    }
    this.engine = engine;
    void engine.waitExit().then(() => {
      if (this.engine === engine) this.engine = null;
    });
    return engine;
  }

  /** Stops the files-only engine (no call may be in flight); resolves once it exited. */
  private stop(): Promise<void> {
    this.clearIdle();
    const engine = this.engine;
    this.engine = null;
    if (!engine) return this.stopping;
    const { stopMs, killMs } = this.deps.timeouts;
    this.stopping = this.stopping.then(() => stopEngine(engine, stopMs, killMs)).catch(() => {});
    return this.stopping;
  }
}

/** A driver's files-only engines, one per server, made on first use. */
export class FilesEngines {
  private readonly engines = new Map<string, FilesEngine>();
  private readonly make: (spec: HostedServerSpec) => FilesEngine;

  constructor(make: (spec: HostedServerSpec) => FilesEngine) {
    this.make = make;
  }

  /** The server's files-only engine (made now if it has none). */
  of(spec: HostedServerSpec): FilesEngine {
    let engine = this.engines.get(spec.id);
    if (!engine) {
      engine = this.make(spec);
      this.engines.set(spec.id, engine);
    }
    return engine;
  }

  /** The pid of the server's files-only engine while one runs, else null. */
  pid(id: string): number | null {
    return this.engines.get(id)?.pid ?? null;
  }

  /** Closes the server's files-only engine for good (the server is being removed). */
  async close(id: string): Promise<void> {
    await this.engines.get(id)?.close();
    this.engines.delete(id);
  }

  /** Closes every one (the api is exiting: none is left running). */
  async closeAll(): Promise<void> {
    await Promise.all([...this.engines.values()].map((engine) => engine.close()));
  }
}

/**
 * A files-only engine found running on a data directory that this driver did not start (an api restart left it):
 * never the server's game engine, so it is stopped before anything else runs there.
 */
export async function stopStrayFilesEngine(state: EngineStateFile, secret: string, waitMs: number): Promise<void> {
  const control = new ControlClient(state.controlHost, state.controlPort, secret);
  await control.request('POST', '/stop', undefined, 2000).catch(() => signalPid(state.pid, 'SIGTERM'));
  const deadline = Date.now() + waitMs;
  while (pidAlive(state.pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  if (pidAlive(state.pid)) signalPid(state.pid, 'SIGKILL');
}
