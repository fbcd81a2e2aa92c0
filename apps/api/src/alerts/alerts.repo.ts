import { randomUUID } from 'node:crypto';
import type { ServerAlertEvent } from '@canopy/contract';
import type { Db } from '../db/db.ts';

/** Alerts kept waiting per server at most; beyond it the oldest are dropped (a dead webhook cannot grow the queue). */
export const QUEUE_CAP_PER_SERVER = 50;

export interface AlertHookRow {
  server_id: string;
  url_sealed: string;
  url_hint: string;
  events: string;
  peak_players: number;
  warned_24h_for: number | string | null;
  warned_1h_for: number | string | null;
  updated_at: number;
}

export interface QueuedAlertRow {
  id: string;
  server_id: string | null;
  destination: string;
  url_sealed: string;
  event: string;
  payload: string;
  attempts: number;
  cut_off: number;
  in_flight: number;
  next_at: number;
  created_at: number;
}

/** The events a hook row subscribes to. */
export function eventsOf(hook: AlertHookRow): ServerAlertEvent[] {
  return JSON.parse(hook.events) as ServerAlertEvent[];
}

/** SQL of the alert hooks and their queue. */
export const alertsRepo = {
  hook: (db: Db, serverId: string) =>
    db.get<AlertHookRow>('SELECT * FROM server_alert_hooks WHERE server_id = ?', [serverId]),

  /** Sets the server's hook; `sealed` undefined keeps the stored URL (the row must then exist). */
  async saveHook(
    db: Db,
    serverId: string,
    change: { sealed?: { url: string; hint: string }; events: ServerAlertEvent[] },
    now: number,
  ) {
    const events = JSON.stringify(change.events);
    if (!change.sealed)
      return db.run('UPDATE server_alert_hooks SET events = ?, updated_at = ? WHERE server_id = ?', [
        events,
        now,
        serverId,
      ]);
    return db.run(
      `INSERT INTO server_alert_hooks (server_id, url_sealed, url_hint, events, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (server_id) DO UPDATE SET url_sealed = excluded.url_sealed, url_hint = excluded.url_hint,
         events = excluded.events, peak_players = 0, updated_at = excluded.updated_at`,
      [serverId, change.sealed.url, change.sealed.hint, events, now],
    );
  },

  removeHook: (db: Db, serverId: string) => db.run('DELETE FROM server_alert_hooks WHERE server_id = ?', [serverId]),

  /** Raises the stored peak when `players` beats it; true when it did (only then is a peak alerted). */
  async beatPeak(db: Db, serverId: string, players: number) {
    const res = await db.run(
      'UPDATE server_alert_hooks SET peak_players = ? WHERE server_id = ? AND peak_players < ?',
      [players, serverId, players],
    );
    return res.changes > 0;
  },

  /** Queues one alert, then drops the server's oldest beyond the cap (inside the caller's transaction). */
  async enqueueIn(
    tx: Db,
    alert: { serverId: string | null; destination: string; urlSealed: string; event: string; payload: string },
    now: number,
  ) {
    await tx.run(
      `INSERT INTO alert_queue (id, server_id, destination, url_sealed, event, payload, next_at, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      [randomUUID(), alert.serverId, alert.destination, alert.urlSealed, alert.event, alert.payload, now, now],
    );
    if (alert.serverId === null) return;
    await tx.run(
      `DELETE FROM alert_queue WHERE server_id = ? AND id NOT IN (
         SELECT id FROM alert_queue WHERE server_id = ? ORDER BY created_at DESC, id DESC LIMIT ${QUEUE_CAP_PER_SERVER})`,
      [alert.serverId, alert.serverId],
    );
  },

  due: (db: Db, now: number, limit: number) =>
    db.all<QueuedAlertRow>('SELECT * FROM alert_queue WHERE next_at <= ? ORDER BY next_at, created_at LIMIT ?', [
      now,
      limit,
    ]),

  /** Marks a POST under way (and, when the row was found in flight, that one attempt was cut off). */
  startSending: (db: Db, id: string, cutOff: boolean) =>
    db.run(`UPDATE alert_queue SET in_flight = 1${cutOff ? ', cut_off = 1' : ''} WHERE id = ?`, [id]),

  /** Puts a row back for later: a failure (attempts counted) or a wait (429, the rate limit). */
  later: (db: Db, id: string, nextAt: number, attempts: number) =>
    db.run('UPDATE alert_queue SET in_flight = 0, next_at = ?, attempts = ? WHERE id = ?', [nextAt, attempts, id]),

  remove: (db: Db, id: string) => db.run('DELETE FROM alert_queue WHERE id = ?', [id]),
};
