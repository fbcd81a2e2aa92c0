import { randomUUID } from 'node:crypto';
import type { ActorType } from '@canopy/contract';
import type { Db } from '../db/db.ts';

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

/** The activity log: every user action and automatic transition, newest last. */
export const activityRepo = {
  add(db: Db, entry: ActivityEntry, now: number) {
    return db.run(
      'INSERT INTO activity_logs (id, timestamp, action, actor_type, actor_name, details) VALUES (?, ?, ?, ?, ?, ?)',
      [randomUUID(), now, entry.action, entry.actorType, entry.actorName, entry.details],
    );
  },
  /** One page of the log, newest first: the timestamp index serves the order, so no page sorts the table. */
  page(db: Db, limit: number, offset: number) {
    return db.all<ActivityRow>(
      'SELECT timestamp, action, actor_type, actor_name, details FROM activity_logs ORDER BY timestamp DESC LIMIT ? OFFSET ?',
      [limit, offset],
    );
  },
  async count(db: Db): Promise<number> {
    return Number((await db.get<{ n: number | string }>('SELECT COUNT(*) AS n FROM activity_logs'))?.n ?? 0);
  },
  recent(db: Db, limit = 100) {
    return db.all<{ timestamp: number; action: string; actor_type: ActorType; actor_name: string; details: string }>(
      'SELECT timestamp, action, actor_type, actor_name, details FROM activity_logs ORDER BY timestamp DESC LIMIT ?',
      [limit],
    );
  },
};
