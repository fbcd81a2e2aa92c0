import type { Db } from '../db/db.ts';

/** A stored schedule (BIGINT columns may come back as strings on PostgreSQL). */
export interface ScheduleRow {
  id: string;
  server_id: string;
  slot: number;
  action: 'restart' | 'broadcast' | 'backup';
  message: string | null;
  at_minute: number;
  weekday: number | null;
  time_zone: string;
  enabled: number;
  next_run_at: number | string | null;
  last_run_at: number | string | null;
  last_outcome: string | null;
  created_at: number | string;
}

/** What a write sets: the schedule's own fields and its next run (null while disabled). */
export interface ScheduleFields {
  action: ScheduleRow['action'];
  message: string | null;
  atMinute: number;
  weekday: number | null;
  timeZone: string;
  enabled: boolean;
  nextRunAt: number | null;
}

/** Most due schedules one scheduler pass takes; the rest wait for the next pass. */
const DUE_BATCH = 100;

/** Server schedules (migration 20). */
export const schedulesRepo = {
  list(db: Db, serverId: string) {
    return db.all<ScheduleRow>('SELECT * FROM schedules WHERE server_id = ? ORDER BY created_at, slot', [serverId]);
  },
  find(db: Db, serverId: string, id: string) {
    return db.get<ScheduleRow>('SELECT * FROM schedules WHERE server_id = ? AND id = ?', [serverId, id]);
  },
  /** The slots in use on a server, to pick the lowest free one. */
  async slots(db: Db, serverId: string) {
    return (await db.all<{ slot: number }>('SELECT slot FROM schedules WHERE server_id = ?', [serverId])).map((r) =>
      Number(r.slot),
    );
  },
  insert(db: Db, row: { id: string; serverId: string; slot: number; now: number } & ScheduleFields) {
    return db.run(
      `INSERT INTO schedules (id, server_id, slot, action, message, at_minute, weekday, time_zone, enabled, next_run_at, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        row.id,
        row.serverId,
        row.slot,
        row.action,
        row.message,
        row.atMinute,
        row.weekday,
        row.timeZone,
        row.enabled ? 1 : 0,
        row.nextRunAt,
        row.now,
      ],
    );
  },
  update(db: Db, serverId: string, id: string, f: ScheduleFields) {
    return db.run(
      `UPDATE schedules SET action = ?, message = ?, at_minute = ?, weekday = ?, time_zone = ?, enabled = ?, next_run_at = ?
       WHERE server_id = ? AND id = ?`,
      [f.action, f.message, f.atMinute, f.weekday, f.timeZone, f.enabled ? 1 : 0, f.nextRunAt, serverId, id],
    );
  },
  delete(db: Db, serverId: string, id: string) {
    return db.run('DELETE FROM schedules WHERE server_id = ? AND id = ?', [serverId, id]);
  },
  /** Enabled schedules whose run is due at `now`, earliest first. */
  due(db: Db, now: number) {
    return db.all<ScheduleRow>(
      'SELECT * FROM schedules WHERE next_run_at IS NOT NULL AND next_run_at <= ? ORDER BY next_run_at LIMIT ?',
      [now, DUE_BATCH],
    );
  },
  /**
   * Claims the run due at `due` by moving the row to its next run: true for exactly one caller however many
   * schedulers (a leader and the one taking over from it) try, since only one UPDATE still finds `due` there.
   */
  async claim(db: Db, id: string, due: number, next: number, now: number) {
    const r = await db.run('UPDATE schedules SET next_run_at = ?, last_run_at = ? WHERE id = ? AND next_run_at = ?', [
      next,
      now,
      id,
      due,
    ]);
    return r.changes === 1;
  },
  setOutcome(db: Db, id: string, outcome: string) {
    return db.run('UPDATE schedules SET last_outcome = ? WHERE id = ?', [outcome, id]);
  },
};
