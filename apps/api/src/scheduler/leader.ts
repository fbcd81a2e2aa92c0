import pg from 'pg';

/** The advisory-lock key the scheduler's leader holds (migrations use 7212026 for their own, per transaction). */
export const SCHEDULER_LOCK_KEY = 7212027;
/** A leader that stops (SIGTERM) notifies this channel, so that a follower tries for the lock now, not on its next try. */
const HANDOVER_CHANNEL = 'canopy_scheduler_handover';

/** Whether this replica runs the platform-wide jobs now (tests, and later /readyz, read it). */
export interface Leadership {
  readonly isLeader: boolean;
  /** Stops the jobs if leading and gives the lock back. */
  stop(): Promise<void>;
}

interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
}

/**
 * Runs `lead` (which starts jobs and returns their stop) on one api replica at a time. On PostgreSQL the leader
 * holds a session-level advisory lock on a connection of its own; followers try for it every `retryMs`, and when
 * the leader's connection dies PostgreSQL releases the lock and a follower takes it. A leader that loses its
 * connection stops its jobs at once. Without a database URL (SQLite, one process) this replica always leads.
 * Resolves after the first attempt, so a single replica has started its jobs when it returns.
 */
export async function startLeadership(opts: {
  databaseUrl?: string;
  retryMs: number;
  log: Logger;
  lead: () => () => Promise<void>;
}): Promise<Leadership> {
  if (!opts.databaseUrl) {
    const stopJobs = opts.lead();
    return { isLeader: true, stop: stopJobs };
  }
  const { log } = opts;
  let client: pg.Client | undefined;
  let stopJobs: (() => Promise<void>) | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const loop = () => {
    running = running.then(attempt);
  };
  // A leader that lost its connection waits before trying again, so that a follower takes over rather than
  // the same replica winning the lock back a moment later (its trouble may be its own).
  let holdOffUntil = 0;

  const giveUp = (c: pg.Client, why: string) => {
    if (client !== c) return;
    client = undefined;
    c.end().catch(() => {});
    if (stopJobs) {
      const stopping = stopJobs;
      stopJobs = undefined;
      log.warn(`scheduler leadership given up (${why})`);
      holdOffUntil = Date.now() + 3 * opts.retryMs;
      void stopping();
    }
  };

  const connect = async () => {
    const c = new pg.Client({
      connectionString: opts.databaseUrl,
      keepAlive: true,
      application_name: 'canopy-scheduler',
      // A leader whose database stops answering must notice within a few attempts, not hang on its heartbeat.
      query_timeout: Math.max(opts.retryMs, 1000),
      connectionTimeoutMillis: Math.max(opts.retryMs, 1000),
    });
    c.on('error', (error) => giveUp(c, error.message));
    c.on('end', () => giveUp(c, 'connection closed'));
    c.on('notification', () => {
      if (!stopJobs) loop();
    });
    client = c;
    await c.connect();
    await c.query(`LISTEN ${HANDOVER_CHANNEL}`);
    return c;
  };

  const attempt = async () => {
    if (stopped || Date.now() < holdOffUntil) return;
    let c = client;
    try {
      c ??= await connect();
      if (stopJobs) {
        // The leader's heartbeat: a connection broken without a word (a partition) shows here.
        await c.query('SELECT 1');
        return;
      }
      const row = (await c.query('SELECT pg_try_advisory_lock($1) AS ok', [SCHEDULER_LOCK_KEY])).rows[0] as {
        ok: boolean;
      };
      if (row.ok && !stopped && client === c) {
        stopJobs = opts.lead();
        log.info('scheduler leadership taken');
      }
    } catch (error) {
      if (c) giveUp(c, (error as Error).message);
      else if (client) giveUp(client, (error as Error).message);
    }
  };

  loop();
  await running;
  timer = setInterval(loop, opts.retryMs);
  timer.unref();

  return {
    get isLeader() {
      return stopJobs !== undefined;
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
      const jobs = stopJobs;
      stopJobs = undefined;
      await jobs?.();
      const c = client;
      client = undefined;
      // The lock goes back and the followers hear of it (the notification is delivered once this statement commits,
      // after the unlock), so that one leads now; ending the session alone frees the lock, but the followers would
      // find out only on their next try (CANOPY_SCHEDULER_LEADER_RETRY_MS).
      if (c && jobs) {
        await c
          .query('SELECT pg_advisory_unlock($1), pg_notify($2, $3)', [SCHEDULER_LOCK_KEY, HANDOVER_CHANNEL, ''])
          .catch(() => {});
        log.info('scheduler leadership given up (handed over: this replica stops)');
      }
      await c?.end().catch(() => {});
    },
  };
}
