import type { Db } from '../../db/db.ts';

// The power lock of a hosted server across api replicas (servers.power_lock_by / power_lock_until, migration 15):
// a lease taken with one conditional UPDATE, renewed while held, free again once released or expired.

/** The power-lock columns of servers; only the kubernetes driver writes them. */
export const powerLockRepo = {
  /** Takes the lease for `holder` until `until` when it is free or expired; true when taken. */
  async take(db: Db, id: string, holder: string, until: number, now: number): Promise<boolean> {
    const { changes } = await db.run(
      `UPDATE servers SET power_lock_by = ?, power_lock_until = ?
        WHERE id = ? AND (power_lock_by IS NULL OR power_lock_until < ?)`,
      [holder, until, id, now],
    );
    return changes === 1;
  },
  /** Moves a held lease's expiry; false when `holder` no longer holds it (it expired and another took it). */
  async renew(db: Db, id: string, holder: string, until: number): Promise<boolean> {
    const { changes } = await db.run('UPDATE servers SET power_lock_until = ? WHERE id = ? AND power_lock_by = ?', [
      until,
      id,
      holder,
    ]);
    return changes === 1;
  },
  /** Frees the lease, noting when (power_lock_until) so a late watch event can be told from a crash. */
  async release(db: Db, id: string, holder: string, now: number): Promise<void> {
    await db.run('UPDATE servers SET power_lock_by = NULL, power_lock_until = ? WHERE id = ? AND power_lock_by = ?', [
      now,
      id,
      holder,
    ]);
  },
  /** True while a lease is held on the server (not yet expired), or when one was released at `since` or later. */
  async heldSince(db: Db, id: string, since: number): Promise<boolean> {
    const row = await db.get<{ until: number | string | null }>(
      'SELECT power_lock_until AS until FROM servers WHERE id = ?',
      [id],
    );
    return row?.until !== null && row?.until !== undefined && Number(row.until) >= since;
  },
  /** Notes that the server's files were used (its maintenance pod is kept while this is recent). */
  async touchFiles(db: Db, id: string, at: number): Promise<void> {
    await db.run('UPDATE servers SET files_used_at = ? WHERE id = ?', [at, id]);
  },
  /** When the server's files were last used, or null (never, or no such server). */
  async filesUsedAt(db: Db, id: string): Promise<number | null> {
    const row = await db.get<{ at: number | string | null }>('SELECT files_used_at AS at FROM servers WHERE id = ?', [
      id,
    ]);
    return row?.at === null || row?.at === undefined ? null : Number(row.at);
  },
};
