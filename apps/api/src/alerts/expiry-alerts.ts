import type { AppContext } from '../context.ts';
import type { AlertHookRow } from './alerts.repo.ts';
import { queueFor } from './notify.ts';

const HOUR = 60 * 60_000;

interface Expiring extends AlertHookRow {
  name: string;
  server_expires_at: number | string;
}

/**
 * A scheduler pass: queues "server time ends in 24 h" and "in 1 h" once per expiry for each server with a webhook
 * (the warned_*_for columns remember for which expiry; a renewal moves it, which re-arms them). A server found with
 * less than an hour left gets only the 1 h warning.
 */
export async function warnExpiry(ctx: AppContext): Promise<void> {
  const now = ctx.now();
  const rows = await ctx.db.all<Expiring>(
    `SELECT h.*, s.name, u.server_expires_at FROM server_alert_hooks h
     JOIN servers s ON s.id = h.server_id JOIN users u ON u.id = s.owner_id
     WHERE u.server_permanent = 0 AND u.server_expires_at > ? AND u.server_expires_at <= ?`,
    [now, now + 24 * HOUR],
  );
  for (const row of rows) {
    const expires = Number(row.server_expires_at);
    const lastHour = expires - now <= HOUR;
    if (Number(lastHour ? row.warned_1h_for : row.warned_24h_for) === expires) continue;
    const left = lastHour ? 'less than an hour' : 'less than 24 hours';
    await ctx.db.transaction(async (tx) => {
      // Conditional, so that a pass that overlaps another (a leader handover) warns once.
      // The 1 h warning also stands for the 24 h one: a server found in its last hour is not told both.
      const column = lastHour ? 'warned_1h_for' : 'warned_24h_for';
      const set = lastHour ? 'warned_1h_for = ?, warned_24h_for = ?' : 'warned_24h_for = ?';
      const claimed = await tx.run(
        `UPDATE server_alert_hooks SET ${set} WHERE server_id = ? AND (${column} IS NULL OR ${column} <> ?)`,
        [...(lastHour ? [expires, expires] : [expires]), row.server_id, expires],
      );
      if (claimed.changes === 0) return;
      const text = `${row.name} has ${left} of server time left. Renew it in the panel (Renew & Shop) to keep it online.`;
      await queueFor(tx, row, lastHour ? 'time_1h' : 'time_24h', { serverName: row.name, text }, now);
    });
  }
}
