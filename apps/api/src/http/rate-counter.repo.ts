import type { Db } from '../db/db.ts';

/** Fixed-window request counters shared by api replicas on PostgreSQL (ADR 0038). */
export const rateCounterRepo = {
  /** Counts one hit of `key` in the window starting at `windowStart`; the hits of that window so far. */
  async hit(db: Db, key: string, windowStart: number, expiresAt: number): Promise<number> {
    // One statement decides: concurrent hits of one key on any replica queue on the row and each sees its own count.
    const row = await db.get<{ hits: number }>(
      `INSERT INTO rate_limit_hits (counter_key, window_start, hits, expires_at) VALUES (?, ?, 1, ?)
       ON CONFLICT (counter_key, window_start) DO UPDATE SET hits = rate_limit_hits.hits + 1
       RETURNING hits`,
      [key, windowStart, expiresAt],
    );
    return Number(row?.hits ?? 1);
  },
  /** Deletes the counters of windows over before `before`. */
  sweep(db: Db, before: number) {
    return db.run('DELETE FROM rate_limit_hits WHERE expires_at < ?', [before]);
  },
};
