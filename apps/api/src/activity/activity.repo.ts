import { randomUUID } from 'node:crypto';
import type { ActorType } from '@canopy/contract';
import type { Db } from '../db/db.ts';
import type { SqlFilter } from './activity-filter.ts';

/** One entry of the activity log the admin panel reads. */
export interface ActivityEntry {
  action: string;
  actorType: ActorType;
  actorName: string;
  details: string;
}

/** A stored entry (timestamp in epoch ms; BIGINT may come back as a string on PostgreSQL). */
export interface ActivityRow {
  timestamp: number | string;
  action: string;
  actor_type: ActorType;
  actor_name: string;
  details: string;
}

/** Up to this many entries (as PostgreSQL estimates them) the log's size is counted exactly. */
const EXACT_COUNT_UP_TO = 100_000;

/** The activity log: every user action and automatic transition, newest last. */
export const activityRepo = {
  add(db: Db, entry: ActivityEntry, now: number) {
    return db.run(
      'INSERT INTO activity_logs (id, timestamp, action, actor_type, actor_name, details) VALUES (?, ?, ?, ?, ?, ?)',
      [randomUUID(), now, entry.action, entry.actorType, entry.actorName, entry.details],
    );
  },
  /**
   * One page of the log, newest first, within `filter` (activity-filter.ts): the timestamp index serves the order,
   * so no page sorts the table.
   */
  page(db: Db, limit: number, offset: number, filter: SqlFilter = { where: '', args: [] }) {
    return db.all<ActivityRow>(
      `SELECT timestamp, action, actor_type, actor_name, details FROM activity_logs ${filter.where}
       ORDER BY timestamp DESC LIMIT ? OFFSET ?`,
      [...filter.args, limit, offset],
    );
  },
  /** How many entries match `filter`: always exact (a filtered count is what the admin searched for). */
  async countWhere(db: Db, filter: SqlFilter): Promise<number> {
    const row = await db.get<{ n: number | string }>(
      `SELECT COUNT(*) AS n FROM activity_logs ${filter.where}`,
      filter.args,
    );
    return Number(row?.n ?? 0);
  },
  /**
   * How many entries the log holds. Exact on SQLite (an index count: 10 ms at a million rows) and on a
   * PostgreSQL log under EXACT_COUNT_UP_TO entries; above that, PostgreSQL's own estimate (kept by autovacuum):
   * its exact count scans the table, 70 ms at a million rows, for a figure only the pager shows.
   */
  async count(db: Db): Promise<number> {
    if (db.dialect === 'postgres') {
      const estimate = await db.get<{ n: number | string }>(
        "SELECT reltuples AS n FROM pg_class WHERE oid = 'activity_logs'::regclass",
      );
      const n = Math.round(Number(estimate?.n ?? -1));
      if (n >= EXACT_COUNT_UP_TO) return n;
    }
    return Number((await db.get<{ n: number | string }>('SELECT COUNT(*) AS n FROM activity_logs'))?.n ?? 0);
  },
};
