import type { ServerStatus } from '@canopy/contract';
import { RuntimeBusyError, type RuntimeListener, type RuntimeState } from '../types.ts';
import type { EngineProcess, ExitInfo } from './engine-process.ts';
import { LineRing } from './line-ring.ts';
import { isHeapOutOfMemoryLine, MemoryCeiling, memoryVerdict } from './memory.ts';
import { announcedPlayers } from './players-line.ts';

/** How a supervisor reaches the outside world; the local driver gives real processes, tests may too. */
export interface SupervisorDeps {
  /** Starts an engine whose heap is limited for this memory ceiling (MB; null: none). */
  spawn(memoryLimitMB: number | null): Promise<EngineProcess>;
  /** The server's memory ceiling in MB now (its owner's plan), or null for none; asked at each start and adoption. */
  memoryLimitMB(): Promise<number | null>;
  /**
   * The engine already running on this server's data directory (left by an earlier api process and
   * answering with this server's secret), or null.
   */
  findRunning(): Promise<EngineProcess | null>;
  listener: RuntimeListener;
  now(): number;
  timeouts: { startMs: number; stopMs: number; killMs: number };
  /** Remembers crash times across api restarts so the loop guard survives them. */
  lastCrashAt: number | null;
  saveLastCrash(at: number): void;
  /**
   * The server's files-only engine (files-engine.ts), kept away while the real engine runs: held (its calls
   * finished, then stopped) under the power lock before the real engine starts or is adopted, released once it
   * is gone. Unset: the server has none (tests).
   */
  files?: { hold(): Promise<void>; release(): void };
}

/** A crash within this long of the previous one leaves the server down instead of restarting it. */
export const CRASH_LOOP_WINDOW_MS = 60_000;
const HISTORY_LINES = 1000;
const MB = 1024 * 1024;

/**
 * Looks after one hosted server's engine: the status model, the power lock (one action at a time),
 * stop escalation, crash detection with a restart-loop guard, player counts from the engine, and its memory
 * ceiling (an engine over it is restarted like a crashed one, under the same guard).
 */
export class Supervisor {
  private readonly id: string;
  private readonly deps: SupervisorDeps;
  private statusValue: ServerStatus = 'OFFLINE';
  private players = 0;
  private engine: EngineProcess | null = null;
  private lock: string | null = null;
  /** The power action holding the lock, so a shutdown can wait for it (idle). */
  private inFlight: Promise<void> = Promise.resolve();
  private readonly history = new LineRing(HISTORY_LINES);
  /** Counts the player lines seen, so a stats answer older than the latest line is not applied. */
  private playerLines = 0;
  /** The current engine's memory ceiling, once known. */
  private ceiling: MemoryCeiling | null = null;
  /** An engine that printed V8's heap-limit death: its exit is reported as over its memory. */
  private heapExhausted: EngineProcess | null = null;

  constructor(id: string, deps: SupervisorDeps) {
    this.id = id;
    this.deps = deps;
  }

  get busy() {
    return this.lock !== null;
  }

  get currentEngine() {
    return this.engine;
  }

  state(): RuntimeState {
    return { status: this.statusValue, players: this.players, version: this.engine?.version ?? 'N/A' };
  }

  consoleHistory(): string[] {
    return this.history.last();
  }

  /** Starts the engine; resolves once it is ONLINE, rejects when the start failed. */
  start(): Promise<void> {
    this.take('start');
    if (this.engine?.running) {
      this.release();
      return Promise.reject(new RuntimeBusyError('already running'));
    }
    return this.locked(async () => {
      this.setStatus('STARTING');
      await this.holdFiles();
      // An engine this api lost track of (it was restarted meanwhile) is taken over: a second one
      // would only be refused by the engine's data-directory lock.
      const running = await this.deps.findRunning();
      if (running) return this.adopt(running);
      await this.launch();
    });
  }

  /** Stops the engine gracefully, escalating to signals after the timeouts. */
  stop(): Promise<void> {
    this.take('stop');
    return this.locked(async () => {
      await this.takeOverRunning();
      if (!this.engine?.running) return this.setStatus('OFFLINE');
      this.setStatus('STOPPING');
      await this.halt();
      this.setStatus('OFFLINE');
    });
  }

  /** Restarts the engine; `reason` is said in the console first, so the '> stop' after it is explained. */
  restart(reason?: string): Promise<void> {
    this.take('restart');
    return this.locked(async () => {
      if (reason && this.engine?.running) this.note(reason, 'INFO');
      this.setStatus('RESTARTING');
      await this.holdFiles();
      await this.takeOverRunning();
      if (this.engine?.running) await this.halt();
      await this.launch();
    });
  }

  /**
   * Holds the power lock for `fn` with the engine stopped (stopping it first, or refusing when
   * `stopRunning` is false and it runs): nothing can start the server while fn works on its files.
   */
  exclusive<T>(fn: () => Promise<T>, stopRunning: boolean): Promise<T> {
    this.take('exclusive');
    return this.locked(async () => {
      await this.takeOverRunning();
      if (this.engine?.running) {
        if (!stopRunning) throw new RuntimeBusyError('server is running');
        this.setStatus('STOPPING');
        await this.halt();
        this.setStatus('OFFLINE');
      }
      // fn works on the server's files: through its files-only engine, which may start now.
      this.deps.files?.release();
      return fn();
    });
  }

  /**
   * After an api start: adopts the engine still running from before, if any, and tells whether there
   * was one. It holds the power lock meanwhile, so no action runs on a server whose state is unknown.
   */
  reattach(): Promise<boolean> {
    this.take('reattach');
    // Not OFFLINE: the engine may well be running; the panel shows UNKNOWN and offers no action.
    this.setStatus('UNKNOWN');
    return this.locked(async () => {
      await this.holdFiles();
      const running = await this.deps.findRunning().catch(() => null);
      if (running) this.adopt(running);
      else this.setStatus('OFFLINE');
      return running !== null;
    });
  }

  /** Takes over an engine that kept running while the api restarted. */
  adopt(engine: EngineProcess) {
    this.attach(engine, this.deps.memoryLimitMB());
    this.setStatus('ONLINE');
    this.startStats();
  }

  /** Leaves the engine running and stops watching it (api shutdown without stopping servers). */
  detach() {
    this.engine = null;
  }

  private take(action: string) {
    if (this.lock) throw new RuntimeBusyError(`${this.lock} in progress`);
    this.lock = action;
  }

  private release() {
    this.lock = null;
  }

  private async locked<T>(fn: () => Promise<T>): Promise<T> {
    const run = fn();
    this.inFlight = run.then(
      () => {},
      () => {},
    );
    try {
      return await run;
    } finally {
      this.release();
    }
  }

  /** Resolves once the power action under way (if any) has ended, whatever its outcome. */
  idle(): Promise<void> {
    return this.lock ? this.inFlight : Promise.resolve();
  }

  /** Stop and restart act on an engine that runs but is not followed (yet), instead of missing it. */
  private async takeOverRunning() {
    if (this.engine?.running) return;
    const running = await this.deps.findRunning();
    if (running) this.attach(running, this.deps.memoryLimitMB());
  }

  /** Holds the files-only engine off (see SupervisorDeps.files); a failure to stop it fails the action. */
  private async holdFiles() {
    await this.deps.files?.hold();
  }

  private async launch() {
    let engine: EngineProcess | null = null;
    try {
      await this.holdFiles();
      const limitMB = await this.deps.memoryLimitMB().catch(() => null);
      engine = await this.deps.spawn(limitMB);
      this.attach(engine, Promise.resolve(limitMB));
      await engine.waitReady(this.deps.timeouts.startMs);
    } catch (error) {
      // A start that does not reach ready counts as failed: make sure nothing is left behind.
      if (engine) {
        engine.signal('SIGKILL');
        await engine.waitExit();
      }
      this.setStatus('OFFLINE');
      this.deps.listener.startFailed(this.id, (error as Error).message, this.history.last(20));
      throw error;
    }
    this.setStatus('ONLINE');
    this.startStats();
  }

  private async halt() {
    const engine = this.engine;
    if (!engine) return;
    this.engine = null; // its exit is expected now, not a crash
    await engine.stop(this.deps.timeouts.stopMs, this.deps.timeouts.killMs);
  }

  /** Follows an engine; its ceiling applies once `limitMB` is known (an adopted engine's is looked up). */
  private attach(engine: EngineProcess, limitMB: Promise<number | null>) {
    this.engine = engine;
    this.ceiling = null;
    this.heapExhausted = null;
    limitMB.then(
      (mb) => {
        if (this.engine === engine && mb !== null) this.ceiling = new MemoryCeiling(mb);
      },
      () => {},
    );
    engine.onLineReceived((line) => {
      this.history.push(line);
      this.deps.listener.console(this.id, line);
      if (isHeapOutOfMemoryLine(line)) this.heapExhausted = engine;
    });
    // Engines announce player counts on the console (ENGINE_PLAYERS_MESSAGE): nothing is polled while idle.
    engine.onLineReceived((line) => {
      const players = announcedPlayers(line);
      if (players === null || this.engine !== engine) return;
      this.playerLines++;
      this.setPlayers(players);
    });
    engine.waitExit().then((info) => {
      if (this.engine === engine) this.crashed(info, engine);
    });
  }

  private crashed(info: ExitInfo, engine: EngineProcess) {
    this.engine = null;
    if (this.lock) return; // a start in progress reports its own failure
    this.setStatus('OFFLINE');
    if (info.code === 0) return; // a clean exit (the engine was told to stop) is a stop, not a crash
    const restarting = this.countCrash();
    // V8 ended it at the heap limit its plan set: say so, as when the sampler restarts one.
    const memory = this.heapExhausted === engine && this.ceiling ? { limitMB: this.ceiling.limitMB } : undefined;
    if (memory) this.note(memoryVerdict('The server', memory.limitMB, restarting));
    this.deps.listener.crash(this.id, { ...info, lastLines: this.history.last(20), restarting, memory });
    if (!restarting) return;
    try {
      this.start().catch(() => {}); // a failed restart is reported as a failed start
    } catch {
      // someone else took the lock first; their action decides what happens
    }
  }

  /** Counts a crash for the loop guard: true when the server may restart (none within the window before). */
  private countCrash(): boolean {
    const now = this.deps.now();
    const last = this.deps.lastCrashAt;
    this.deps.lastCrashAt = now;
    this.deps.saveLastCrash(now);
    return last === null || now - last >= CRASH_LOOP_WINDOW_MS;
  }

  /**
   * One sample of the engine's own memory (the driver samples every engine). An engine over its ceiling for
   * OVER_SAMPLES samples in a row is stopped (gracefully: it saves) and restarted, which counts as a crash for
   * the loop guard: a tenant who fills it again within a minute leaves it offline instead of looping it.
   */
  sampleMemory(engine: EngineProcess, bytes: number) {
    const ceiling = this.ceiling;
    if (engine !== this.engine || !ceiling || this.lock || !ceiling.exceededBy(bytes)) return;
    this.take('memory');
    const memory = { limitMB: ceiling.limitMB, usedMB: Math.round(bytes / MB) };
    this.locked(async () => {
      const restarting = this.countCrash();
      this.setStatus(restarting ? 'RESTARTING' : 'STOPPING');
      await this.halt();
      this.note(`${memoryVerdict('The server', memory.limitMB, restarting)} (${memory.usedMB} MB)`);
      this.deps.listener.crash(this.id, {
        code: null,
        signal: null,
        lastLines: this.history.last(20),
        restarting,
        memory,
      });
      if (restarting) await this.launch();
      else this.setStatus('OFFLINE');
    }).catch(() => {}); // a failed restart is reported as a failed start
  }

  /** A line of the supervisor's own in the server's console, in the engines' log format. */
  private note(text: string, level: 'WARN' | 'INFO' = 'WARN') {
    const line = `${new Date().toISOString()} [${level}] ${text.endsWith('.') ? text : `${text}.`}`;
    this.history.push(line);
    this.deps.listener.console(this.id, line);
  }

  private setStatus(status: ServerStatus) {
    if (status !== 'ONLINE') this.players = 0;
    // Every way the real engine goes (stopped, crashed, failed to start, not found at re-attach) ends here.
    if (status === 'OFFLINE' && !this.engine?.running) this.deps.files?.release();
    this.statusValue = status;
    this.deps.listener.status(this.id, this.state());
  }

  /**
   * Reads the count once when an engine comes up (an adopted one may have players already); later changes
   * arrive as console lines. Polling /stats every 5 s cost each idle engine about 2.5 ms of CPU per request
   * and the api about 1.5 ms: a quarter of this machine with 500 servers (docs/decisions/0023-density.md).
   */
  private startStats() {
    void this.pollStats();
  }

  private async pollStats() {
    const control = this.engine?.control;
    if (!control || this.statusValue !== 'ONLINE') return;
    const lines = this.playerLines;
    try {
      const stats = await control.stats();
      if (this.engine) this.engine.version = stats.version;
      if (this.playerLines === lines) this.setPlayers(stats.players);
    } catch {
      // A missed poll is not a crash; the exit watcher decides that.
    }
  }

  private setPlayers(players: number) {
    if (this.statusValue !== 'ONLINE' || players === this.players) return;
    this.players = players;
    this.deps.listener.status(this.id, this.state());
  }
}
