import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { engineStateFileSchema } from '@canopy/contract';
import type { ControlClient } from '../control-client.ts';
import { type FilesLease, ServerFiles } from '../server-files.ts';
import {
  type ConsoleWatch,
  type HostedServerSpec,
  RuntimeBusyError,
  type RuntimeDriver,
  type RuntimeListener,
} from '../types.ts';
import { CpuMeter } from './cpu.ts';
import { type EngineItems, EngineProcess } from './engine-process.ts';
import { FilesEngine, FilesEngines, stopStrayFilesEngine } from './files-engine.ts';
import { privateMemoryBytes } from './memory.ts';
import { Supervisor } from './supervisor.ts';

export interface LocalDriverOptions {
  /** Folder holding one data directory per hosted server. */
  root: string;
  engineEntry: string;
  /** Start engines with the benchmark-only console commands. */
  benchCommands?: boolean;
  /** Where a starting engine fetches the operator's item database (undefined: none installed, the bundled one). */
  items?: (serverId: string) => Promise<EngineItems | undefined>;
  /** How long a files-only engine stays up after its last call (docs/engine-files-api.md); default FILES_IDLE_MS. */
  filesIdleMs?: number;
  timeouts: { startMs: number; stopMs: number; killMs: number };
  listener: RuntimeListener;
  now: () => number;
  /** Records crash times in the platform database. */
  saveLastCrash(id: string, at: number): void;
  /** A server's memory ceiling in MB now, by its owner's plan (ADR 0029); unset: engines run without one. */
  memoryLimitMB?: (spec: HostedServerSpec) => Promise<number>;
  /** How often every engine's memory is read; default MEMORY_SAMPLE_MS. */
  memorySampleMs?: number;
}

/**
 * How often the driver reads every engine's memory. One read costs about 40 µs of the api's CPU, so 500 engines
 * cost 20 ms every 5 s (0.4 % of a core); an engine over its ceiling is restarted after two reads, 5-10 s.
 */
export const MEMORY_SAMPLE_MS = 5000;
/** How long a files-only engine stays up after its last call, unless told otherwise. */
export const FILES_IDLE_MS = 30_000;
/** Engines read in one go before the sampler lets requests run. */
const SAMPLE_BATCH = 50;

/** Runs each hosted server as an engine process on this machine. */
export class LocalDriver implements RuntimeDriver {
  private readonly opts: LocalDriverOptions;
  private readonly supervisors = new Map<string, Supervisor>();
  /** Each server's files-only engine (made with its supervisor, which holds it off while the real engine runs). */
  private readonly filesEngines: FilesEngines;
  /** Servers being (or already) removed; ids are never reused, so they stay here. */
  private readonly removed = new Set<string>();
  /** Re-attachments under way after an api start, by server id. */
  private readonly reattaching = new Map<string, Promise<void>>();
  private readonly sampler: NodeJS.Timeout | null = null;
  private sampling = false;
  /** The CPU readings of the history sampler (usage), one a minute per running engine. */
  private readonly cpu = new CpuMeter();

  constructor(opts: LocalDriverOptions) {
    this.opts = opts;
    this.filesEngines = new FilesEngines(
      (spec) =>
        new FilesEngine({
          spawn: () => this.spawnEngine(spec, { filesOnly: true }),
          idleMs: opts.filesIdleMs ?? FILES_IDLE_MS,
          timeouts: opts.timeouts,
        }),
    );
    if (opts.memoryLimitMB) {
      this.sampler = setInterval(() => void this.sampleMemory(), opts.memorySampleMs ?? MEMORY_SAMPLE_MS);
      this.sampler.unref();
    }
  }

  /** Reads every running engine's own memory and hands it to its supervisor, which enforces the ceiling. */
  private async sampleMemory() {
    if (this.sampling) return;
    this.sampling = true;
    try {
      let read = 0;
      for (const s of [...this.supervisors.values()]) {
        const engine = s.currentEngine;
        if (!engine?.running) continue;
        const bytes = privateMemoryBytes(engine.pid);
        if (bytes !== null) s.sampleMemory(engine, bytes);
        if (++read % SAMPLE_BATCH === 0) await new Promise((r) => setImmediate(r));
      }
    } finally {
      this.sampling = false;
    }
  }

  /** The data directory of a hosted server: only this driver and the server's engines use it. */
  private dataDir(id: string) {
    return join(this.opts.root, id);
  }

  private async spawnEngine(spec: HostedServerSpec, opts: { memoryLimitMB: number | null } | { filesOnly: true }) {
    const items = 'filesOnly' in opts ? undefined : await this.opts.items?.(spec.id);
    return EngineProcess.spawn({
      entry: this.opts.engineEntry,
      dataDir: this.dataDir(spec.id),
      gamePort: spec.gamePort,
      secret: spec.secret,
      benchCommands: this.opts.benchCommands === true,
      items,
      compileCacheDir: join(this.opts.root, '.compile-cache'),
      ...opts,
    });
  }

  private supervisor(spec: HostedServerSpec): Supervisor {
    if (this.removed.has(spec.id)) throw new RuntimeBusyError('server is being deleted');
    let s = this.supervisors.get(spec.id);
    if (!s) {
      s = new Supervisor(spec.id, {
        spawn: (memoryLimitMB) => this.spawnEngine(spec, { memoryLimitMB }),
        files: this.filesEngines.of(spec),
        memoryLimitMB: async () => (this.opts.memoryLimitMB ? this.opts.memoryLimitMB(spec) : null),
        findRunning: () => this.findRunning(spec),
        listener: this.opts.listener,
        now: this.opts.now,
        timeouts: this.opts.timeouts,
        lastCrashAt: spec.lastCrashAt,
        saveLastCrash: (at) => this.opts.saveLastCrash(spec.id, at),
      });
      this.supervisors.set(spec.id, s);
    }
    return s;
  }

  private existing(id: string): Supervisor {
    const s = this.supervisors.get(id);
    if (!s) throw new RuntimeBusyError('server is not known to the runtime');
    return s;
  }

  /**
   * The game engine left running on a server's data directory by an earlier api process, or null. A files-only
   * engine is never one: this driver's own is held off before this is asked; another (an api restart left it)
   * is stopped here, so that the real engine can take the data directory.
   */
  private async findRunning(spec: HostedServerSpec) {
    const state = await readFile(join(this.dataDir(spec.id), 'engine.json'), 'utf8')
      .then((t) => engineStateFileSchema.parse(JSON.parse(t)))
      .catch(() => null);
    if (!state) return null;
    if (state.filesOnly) {
      if (state.pid !== this.filesEngines.pid(spec.id))
        await stopStrayFilesEngine(state, spec.secret, this.opts.timeouts.stopMs + this.opts.timeouts.killMs);
      return null;
    }
    return EngineProcess.adopt(state, spec.secret);
  }

  async reconcile(servers: HostedServerSpec[], shouldRun: (id: string) => boolean): Promise<void> {
    await Promise.all(
      servers.map(async (spec) => {
        const supervisor = this.supervisor(spec);
        // The lock is taken now, before any await, so a power action arriving meanwhile waits (settled)
        // or is refused instead of starting a second engine beside the one being adopted.
        const found = supervisor.reattach().then((adopted) => {
          // The follow-up takes the lock in the same step, so settled() never shows a gap between them.
          try {
            if (adopted && !shouldRun(spec.id)) return { next: supervisor.stop() };
            if (!adopted && shouldRun(spec.id)) return { next: supervisor.start() };
          } catch {
            // another action took the lock first; it decides what happens
          }
          return { next: Promise.resolve() };
        });
        const settled = found.then(
          () => {},
          () => {},
        );
        this.reattaching.set(spec.id, settled);
        void settled.finally(() => {
          if (this.reattaching.get(spec.id) === settled) this.reattaching.delete(spec.id);
        });
        const { next } = await found;
        await next.catch(() => {}); // a failed start is reported as such by the supervisor
      }),
    );
  }

  settled(id: string): Promise<void> {
    return this.reattaching.get(id) ?? Promise.resolve();
  }

  /** Engines are this host's processes: ready as soon as reconcile has run. */
  notReady(): undefined {
    return undefined;
  }

  isBusy(id: string) {
    return this.removed.has(id) || (this.supervisors.get(id)?.busy ?? false);
  }

  isRemoved(id: string) {
    return this.removed.has(id);
  }

  /** Only this replica runs its engines: their status is relayed to the other replicas (events/pg-relay.ts). */
  readonly clusterWide = false;

  /** The power lock is this process's alone: an action holds all of it as soon as it began. */
  claimed(_id: string): Promise<void> {
    return Promise.resolve();
  }

  /** Every engine's console is followed anyway (stdout, or the stream of an adopted one). */
  watchConsole(_id: string): ConsoleWatch {
    return { ready: Promise.resolve(), end: () => {} };
  }

  start(spec: HostedServerSpec) {
    return this.supervisor(spec).start();
  }

  stop(id: string) {
    return this.existing(id).stop();
  }

  restart(spec: HostedServerSpec, reason?: string) {
    return this.supervisor(spec).restart(reason);
  }

  exclusive<T>(spec: HostedServerSpec, fn: () => Promise<T>, opts: { stopRunning?: boolean } = {}) {
    return this.supervisor(spec).exclusive(fn, opts.stopRunning ?? true);
  }

  async remove(spec: HostedServerSpec) {
    const s = this.supervisors.get(spec.id);
    if (s?.busy) throw new RuntimeBusyError('another action is in progress');
    this.removed.add(spec.id);
    if (s?.currentEngine?.running) await s.stop();
    this.supervisors.delete(spec.id);
    // Its calls in flight finish first; a write that ends after this is deleted with the rest.
    await this.filesEngines.close(spec.id);
    await rm(this.dataDir(spec.id), { recursive: true, force: true });
  }

  state(id: string) {
    return this.supervisors.get(id)?.state() ?? { status: 'OFFLINE' as const, players: 0, version: 'N/A' };
  }

  async sendCommand(id: string, command: string) {
    const engine = this.supervisors.get(id)?.currentEngine;
    if (!engine?.running) throw new RuntimeBusyError('server is not running');
    await engine.sendCommand(command);
  }

  consoleHistory(id: string) {
    return this.supervisors.get(id)?.consoleHistory() ?? [];
  }

  control(id: string): ControlClient | null {
    const s = this.supervisors.get(id);
    return s?.state().status === 'ONLINE' ? (s.currentEngine?.control ?? null) : null;
  }

  usage(id: string) {
    const engine = this.supervisors.get(id)?.currentEngine;
    if (!engine?.running) {
      this.cpu.forget(id);
      return null;
    }
    return { cpuPercent: this.cpu.read(id, engine.pid, Date.now()), memoryBytes: privateMemoryBytes(engine.pid) };
  }

  files(spec: HostedServerSpec): ServerFiles {
    return new ServerFiles({ acquire: () => this.filesLease(spec) });
  }

  /** The running engine while the server is ONLINE, else its files-only engine (refused while the server is removed). */
  private async filesLease(spec: HostedServerSpec): Promise<FilesLease> {
    if (this.removed.has(spec.id)) throw new RuntimeBusyError('server is being deleted');
    const control = this.control(spec.id);
    if (control) return { control, release: () => {} };
    this.supervisor(spec); // made with it, so that a start holds it off
    return this.filesEngines.of(spec).acquire();
  }

  /** The pid of the server's files-only engine while one runs (tests), else null. */
  filesOnlyPid(id: string): number | null {
    return this.filesEngines.pid(id);
  }

  async shutdown({ stopServers }: { stopServers: boolean }) {
    if (this.sampler) clearInterval(this.sampler);
    // Never left running: nothing re-attaches a files-only engine (the next api stops one it finds).
    await this.filesEngines.closeAll();
    await Promise.all(
      [...this.supervisors.values()].map(async (s) => {
        // A restart under way (one that applies a configuration save runs in the background) would launch its
        // engine after this shutdown: stopping waits for it, so that engine is stopped too.
        if (stopServers) await s.idle();
        if (!stopServers || !s.currentEngine?.running) return s.detach();
        try {
          await s.stop();
        } catch {
          s.currentEngine?.signal('SIGKILL');
        }
      }),
    );
  }
}
