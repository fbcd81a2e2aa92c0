import { join } from 'node:path';
import { activityRepo } from '../activity/activity.repo.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/db.ts';
import type { EventBus } from '../events/bus.ts';
import { LocalDriver } from '../runtime/local/local-driver.ts';
import type { RuntimeDriver, RuntimeListener } from '../runtime/types.ts';
import { toSpec } from './hosting.ts';
import { type ServerRow, serversRepo } from './servers.repo.ts';

interface Known {
  name: string;
  ownerId: string;
}

/**
 * The hosted servers the api knows, their runtime, and the wiring from runtime events to the event
 * bus and the activity log. The name/owner cache keeps the public status feed off the database.
 */
export class ServerRegistry {
  readonly runtime: RuntimeDriver;
  private readonly known = new Map<string, Known>();
  private readonly db: Db;
  private readonly bus: EventBus;
  private readonly now: () => number;

  constructor(opts: { config: Config; db: Db; bus: EventBus; now: () => number; log: (msg: string) => void }) {
    this.db = opts.db;
    this.bus = opts.bus;
    this.now = opts.now;
    const listener: RuntimeListener = {
      status: (id, state) => {
        const k = this.known.get(id);
        if (k) this.bus.emit('status', { serverId: id, name: k.name, ownerId: k.ownerId, ...state });
      },
      console: (id, line) => {
        const k = this.known.get(id);
        if (k) this.bus.emit('console', { serverId: id, ownerId: k.ownerId, line });
      },
      crash: (id, report) => {
        const how = report.code !== null ? `exit code ${report.code}` : `signal ${report.signal ?? 'unknown'}`;
        const next = report.restarting ? 'restarting it' : 'it crashed again within a minute, so it stays offline';
        opts.log(`server ${this.known.get(id)?.name ?? id} crashed (${how}); ${next}`);
        void this.system(
          'Server crashed',
          `${this.known.get(id)?.name ?? id} exited unexpectedly (${how}); ${next}. Last lines:\n${report.lastLines.join('\n')}`,
        );
      },
      startFailed: (id, reason, lastLines) => {
        void this.system(
          'Server start failed',
          `${this.known.get(id)?.name ?? id}: ${reason}. Last lines:\n${lastLines.join('\n')}`,
        );
      },
    };
    this.runtime = new LocalDriver({
      root: join(opts.config.dataDir, 'servers'),
      engineEntry: opts.config.engineEntry,
      timeouts: {
        startMs: opts.config.engineStartTimeoutMs,
        stopMs: opts.config.engineStopTimeoutMs,
        killMs: opts.config.engineKillTimeoutMs,
      },
      listener,
      now: opts.now,
      saveLastCrash: (id, at) => void serversRepo.setLastCrash(this.db, id, at).catch(() => {}),
    });
  }

  private system(action: string, details: string) {
    return activityRepo
      .add(this.db, { action, actorType: 'System', actorName: 'System', details }, this.now())
      .catch(() => {});
  }

  /** Loads every server and brings the runtime in line with what should run. */
  async boot(): Promise<void> {
    const rows = await serversRepo.all(this.db);
    for (const r of rows) this.remember(r);
    const wanted = new Set(rows.filter((r) => r.desired_state === 'running').map((r) => r.id));
    await this.runtime.reconcile(rows.map(toSpec), (id) => wanted.has(id));
  }

  remember(row: ServerRow) {
    this.known.set(row.id, { name: row.name, ownerId: row.owner_id });
  }

  forget(id: string) {
    this.known.delete(id);
  }

  /** The public status feed: every hosted server with its live state. */
  feed() {
    return [...this.known.entries()].map(([id, k]) => {
      const s = this.runtime.state(id);
      return { name: k.name, status: s.status, players: s.players, version: s.version };
    });
  }
}
