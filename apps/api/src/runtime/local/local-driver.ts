import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { engineStateFileSchema } from '@canopy/contract';
import type { ControlClient } from '../control-client.ts';
import { type HostedServerSpec, RuntimeBusyError, type RuntimeDriver, type RuntimeListener } from '../types.ts';
import { EngineProcess } from './engine-process.ts';
import { folderBytes } from './storage.ts';
import { Supervisor } from './supervisor.ts';

export interface LocalDriverOptions {
  /** Folder holding one data directory per hosted server. */
  root: string;
  engineEntry: string;
  timeouts: { startMs: number; stopMs: number; killMs: number };
  listener: RuntimeListener;
  now: () => number;
  /** Records crash times in the platform database. */
  saveLastCrash(id: string, at: number): void;
}

/** Runs each hosted server as an engine process on this machine. */
export class LocalDriver implements RuntimeDriver {
  private readonly opts: LocalDriverOptions;
  private readonly supervisors = new Map<string, Supervisor>();
  /** Servers being (or already) removed; ids are never reused, so they stay here. */
  private readonly removed = new Set<string>();

  constructor(opts: LocalDriverOptions) {
    this.opts = opts;
  }

  /** The data directory of a hosted server. */
  dataDir(id: string) {
    return join(this.opts.root, id);
  }

  private supervisor(spec: HostedServerSpec): Supervisor {
    if (this.removed.has(spec.id)) throw new RuntimeBusyError('server is being deleted');
    let s = this.supervisors.get(spec.id);
    if (!s) {
      s = new Supervisor(spec.id, {
        spawn: () =>
          EngineProcess.spawn({
            entry: this.opts.engineEntry,
            dataDir: this.dataDir(spec.id),
            gamePort: spec.gamePort,
            secret: spec.secret,
            compileCacheDir: join(this.opts.root, '.compile-cache'),
          }),
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

  async reconcile(servers: HostedServerSpec[], shouldRun: (id: string) => boolean): Promise<void> {
    await Promise.all(
      servers.map(async (spec) => {
        const supervisor = this.supervisor(spec);
        // An engine from before the api restart is adopted, never started twice.
        const state = await readFile(join(this.dataDir(spec.id), 'engine.json'), 'utf8')
          .then((t) => engineStateFileSchema.parse(JSON.parse(t)))
          .catch(() => null);
        const engine = state ? await EngineProcess.adopt(state, spec.secret) : null;
        if (engine && shouldRun(spec.id)) return supervisor.adopt(engine);
        if (engine) {
          await engine.stop(this.opts.timeouts.stopMs, this.opts.timeouts.killMs);
          return;
        }
        if (shouldRun(spec.id)) await supervisor.start().catch(() => {});
      }),
    );
  }

  isBusy(id: string) {
    return this.removed.has(id) || (this.supervisors.get(id)?.busy ?? false);
  }

  start(spec: HostedServerSpec) {
    return this.supervisor(spec).start();
  }

  stop(id: string) {
    return this.existing(id).stop();
  }

  restart(spec: HostedServerSpec) {
    return this.supervisor(spec).restart();
  }

  async remove(spec: HostedServerSpec) {
    const s = this.supervisors.get(spec.id);
    if (s?.busy) throw new RuntimeBusyError('another action is in progress');
    this.removed.add(spec.id);
    if (s?.currentEngine?.running) await s.stop();
    this.supervisors.delete(spec.id);
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

  storageBytes(id: string) {
    return folderBytes(this.dataDir(id));
  }

  async shutdown({ stopServers }: { stopServers: boolean }) {
    await Promise.all(
      [...this.supervisors.values()].map(async (s) => {
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
