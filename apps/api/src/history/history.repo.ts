import type { Db } from '../db/db.ts';
import { MINUTE, type Resolution, type Sample } from './downsample.ts';

/** A server's measure at one sampling pass (cpu, memory: null where the runtime cannot measure them). */
export interface ServerMeasure {
  serverId: string;
  players: number;
  cpu: number | null;
  memory: number | null;
}

/** A platform point as stored. */
export interface PlatformSample {
  at: number;
  servers: number;
  players: number;
  storage: number;
}

/** Rows per INSERT: one statement (and one commit) per 500 servers, under both engines' parameter limits. */
export const SAMPLE_BATCH = 500;

/** A whole number written into SQL: steps and span starts are the code's own numbers, never a caller's. */
function int(n: number): string {
  if (!Number.isSafeInteger(n)) throw new Error(`not an integer: ${n}`);
  return String(n);
}

const upsertSample = `ON CONFLICT (step_ms, at, server_id) DO UPDATE SET samples = excluded.samples,
  players = excluded.players, cpu = excluded.cpu, memory = excluded.memory`;

/** The weighted CPU average and the peaks of the finer rows read by a rollup (same rule as downsample.rollUp). */
const rolledColumns = `SUM(samples), MAX(players),
  SUM(cpu * samples) / SUM(CASE WHEN cpu IS NULL THEN NULL ELSE samples END), MAX(memory)`;

export const historyRepo = {
  /** Writes one 1-minute point per measured server for the minute starting `at` (a second pass in it replaces). */
  async writeMinute(db: Db, at: number, measures: readonly ServerMeasure[]): Promise<void> {
    for (let i = 0; i < measures.length; i += SAMPLE_BATCH) {
      const chunk = measures.slice(i, i + SAMPLE_BATCH);
      const values = (m: readonly ServerMeasure[]) => m.map(() => `(?, ${MINUTE}, ${int(at)}, 1, ?, ?, ?)`).join(', ');
      const params = (m: readonly ServerMeasure[]) => m.flatMap((s) => [s.serverId, s.players, s.cpu, s.memory]);
      const sql = (m: readonly ServerMeasure[]) =>
        `INSERT INTO server_samples (server_id, step_ms, at, samples, players, cpu, memory) VALUES ${values(m)} ${upsertSample}`;
      try {
        await db.run(sql(chunk), params(chunk));
      } catch {
        // A server deleted since it was measured fails its whole chunk (foreign key): the others are written one by one.
        for (const one of chunk) await db.run(sql([one]), params([one])).catch(() => {});
      }
    }
  },

  /** True when some server has a row of this resolution at `at`: the span was rolled up (one statement does all). */
  async rolled(db: Db, table: 'server_samples' | 'platform_samples', stepMs: number, at: number): Promise<boolean> {
    const row = await db.get(`SELECT 1 AS x FROM ${table} WHERE step_ms = ? AND at = ? LIMIT 1`, [stepMs, at]);
    return row !== undefined;
  },

  /** Rolls every server's finer rows of the span starting `at` into one row of resolution `r`. */
  async rollUpServers(db: Db, r: Resolution, at: number): Promise<void> {
    await db.run(
      `INSERT INTO server_samples (server_id, step_ms, at, samples, players, cpu, memory)
       SELECT server_id, ${int(r.stepMs)}, ${int(at)}, ${rolledColumns} FROM server_samples
       WHERE step_ms = ${int(r.from ?? 0)} AND at >= ${int(at)} AND at < ${int(at + r.stepMs)}
       GROUP BY server_id
       ON CONFLICT (step_ms, at, server_id) DO NOTHING`,
    );
  },

  /** Rolls the platform's finer rows of the span starting `at` into one row of resolution `r` (peaks). */
  async rollUpPlatform(db: Db, r: Resolution, at: number): Promise<void> {
    await db.run(
      `INSERT INTO platform_samples (step_ms, at, samples, servers_online, players_online, storage_bytes)
       SELECT ${int(r.stepMs)}, ${int(at)}, SUM(samples), MAX(servers_online), MAX(players_online), MAX(storage_bytes)
       FROM platform_samples WHERE step_ms = ${int(r.from ?? 0)} AND at >= ${int(at)} AND at < ${int(at + r.stepMs)}
       GROUP BY step_ms
       ON CONFLICT (step_ms, at) DO NOTHING`,
    );
  },

  /**
   * The platform's point for the minute starting `at`: the servers sampled in it (every replica samples the
   * ONLINE servers it runs), their players, and the storage all accounts use now.
   */
  async writePlatformMinute(db: Db, at: number): Promise<void> {
    await db.run(
      `INSERT INTO platform_samples (step_ms, at, samples, servers_online, players_online, storage_bytes)
       SELECT ${MINUTE}, ${int(at)}, 1, COUNT(*), COALESCE(SUM(players), 0),
         (SELECT COALESCE(SUM(storage_used_bytes), 0) FROM users)
       FROM server_samples WHERE step_ms = ${MINUTE} AND at = ${int(at)}
       ON CONFLICT (step_ms, at) DO UPDATE SET servers_online = excluded.servers_online,
         players_online = excluded.players_online, storage_bytes = excluded.storage_bytes`,
    );
  },

  /** Deletes the rows of resolution `r` older than `before`, of every server and of the platform. */
  async prune(db: Db, r: Resolution, before: number): Promise<number> {
    const a = await db.run('DELETE FROM server_samples WHERE step_ms = ? AND at < ?', [r.stepMs, before]);
    const b = await db.run('DELETE FROM platform_samples WHERE step_ms = ? AND at < ?', [r.stepMs, before]);
    return a.changes + b.changes;
  },

  /** A server's rows of one resolution from `from` on, oldest first. */
  async serverRows(db: Db, serverId: string, stepMs: number, from: number): Promise<Sample[]> {
    const rows = await db.all<Record<string, number | string | null>>(
      'SELECT at, samples, players, cpu, memory FROM server_samples WHERE server_id = ? AND step_ms = ? AND at >= ? ORDER BY at',
      [serverId, stepMs, from],
    );
    return rows.map((r) => ({
      at: Number(r.at),
      samples: Number(r.samples),
      players: Number(r.players),
      cpu: r.cpu === null ? null : Number(r.cpu),
      memory: r.memory === null ? null : Number(r.memory),
    }));
  },

  /** The platform's rows of one resolution from `from` on, oldest first. */
  async platformRows(db: Db, stepMs: number, from: number): Promise<(PlatformSample & { samples: number })[]> {
    const rows = await db.all<Record<string, number | string>>(
      `SELECT at, samples, servers_online, players_online, storage_bytes FROM platform_samples
       WHERE step_ms = ? AND at >= ? ORDER BY at`,
      [stepMs, from],
    );
    return rows.map((r) => ({
      at: Number(r.at),
      samples: Number(r.samples),
      servers: Number(r.servers_online),
      players: Number(r.players_online),
      storage: Number(r.storage_bytes),
    }));
  },

  /** Counts per span from `from` on: signups (users.created_at) and credits sold (the ledger's payment rows). */
  async eventCounts(db: Db, stepMs: number, from: number) {
    const span = `created_at - created_at % ${int(stepMs)}`;
    const read = async (sql: string) =>
      new Map(
        (await db.all<{ at: number | string; n: number | string }>(sql, [from])).map((r) => [
          Number(r.at),
          Number(r.n),
        ]),
      );
    const signups = await read(`SELECT ${span} AS at, COUNT(*) AS n FROM users WHERE created_at >= ? GROUP BY 1`);
    const credits = await read(
      `SELECT ${span} AS at, SUM(delta) AS n FROM credit_ledger WHERE reason = 'payment' AND created_at >= ? GROUP BY 1`,
    );
    return { signups, credits };
  },
};
