import type { ReadyzResponse } from '@canopy/contract';
import { type Db, isDatabaseUnavailable } from '../db/db.ts';
import { migrations } from '../db/migrations.ts';
import { healthRepo } from './health.repo.ts';

/** How long /readyz waits for the database: well inside a probe's timeout (the chart gives it 3 s or more). */
export const READY_DATABASE_TIMEOUT_MS = 2000;

/** The schema this build migrates to (openDatabase applies every migration before the api listens). */
const LATEST_SCHEMA = Math.max(...migrations.map((m) => m.version));

const TIMED_OUT = Symbol('timed out');

interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
}

/** What readiness reads from the rest of the api (app.ts wires them). */
export interface ReadinessSources {
  db: Db;
  /** Why the runtime cannot serve yet (booting, its cluster not reached), or undefined once it can. */
  runtimeNotReady: () => string | undefined;
  isLeader: () => boolean;
  log: Logger;
}

/**
 * Whether this replica should get traffic (GET /readyz, ADR 0044). Not ready until startBackground has finished,
 * once SIGTERM arrived, while the database does not answer or has an older schema than this build's, and while the
 * runtime driver has not booted. The reasons are fixed phrases: a probe is public, so an error's own text (a host
 * name, a connection string) goes to the log, once per change, never into the answer.
 */
export class Readiness {
  private readonly sources: ReadinessSources;
  private started = false;
  private stopping = false;
  /** The database check under way: probes arriving meanwhile share it instead of piling queries onto the pool. */
  private checking: Promise<number | Error> | undefined;
  private lastReason: string | undefined = 'starting';

  constructor(sources: ReadinessSources) {
    this.sources = sources;
  }

  /** The background work (re-attach, scheduler election, gateway) has started: ready from now on if all else is. */
  markStarted(): void {
    this.started = true;
  }

  /** SIGTERM arrived: not ready from now on, whatever else holds. */
  markStopping(): void {
    this.stopping = true;
  }

  /** The probe's answer now. */
  async check(): Promise<ReadyzResponse> {
    const { reason, detail } = await this.verdict();
    if (reason !== this.lastReason) {
      // Starting and stopping are routine; the database failing is what an operator must see.
      const log = reason?.startsWith('database') ? this.sources.log.warn : this.sources.log.info;
      if (reason) log.call(this.sources.log, `not ready: ${reason}${detail ? ` (${detail})` : ''}`);
      else this.sources.log.info('ready');
      this.lastReason = reason;
    }
    return reason ? { status: 'unavailable', reason } : { status: 'ready', leader: this.sources.isLeader() };
  }

  /** Why not ready (undefined: ready), and the error's own text for the log. */
  private async verdict(): Promise<{ reason?: string; detail?: string }> {
    if (this.stopping) return { reason: 'shutting down' };
    const schema = await this.schemaVersion();
    if (schema === TIMED_OUT) return { reason: `database did not answer within ${READY_DATABASE_TIMEOUT_MS / 1000} s` };
    if (schema instanceof Error)
      return isDatabaseUnavailable(schema)
        ? { reason: 'database unreachable', detail: schema.message }
        : { reason: 'database check failed (see the api log)', detail: schema.message };
    if (schema < LATEST_SCHEMA)
      return {
        reason: `database schema at version ${schema}, this build needs ${LATEST_SCHEMA} (migrations not done)`,
      };
    // A newer schema is fine: during a rolling upgrade the new release migrates while the old one still serves.
    const runtime = this.sources.runtimeNotReady();
    if (runtime) return { reason: runtime };
    if (!this.started) return { reason: 'starting (scheduler election, login gateway)' };
    return {};
  }

  private async schemaVersion(): Promise<number | Error | typeof TIMED_OUT> {
    this.checking ??= healthRepo.schemaVersion(this.sources.db).then(
      (version) => version,
      (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
    );
    const current = this.checking;
    void current.finally(() => {
      if (this.checking === current) this.checking = undefined;
    });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<typeof TIMED_OUT>((resolve) => {
      timer = setTimeout(() => resolve(TIMED_OUT), READY_DATABASE_TIMEOUT_MS);
    });
    try {
      return await Promise.race([current, late]);
    } finally {
      clearTimeout(timer);
    }
  }
}
