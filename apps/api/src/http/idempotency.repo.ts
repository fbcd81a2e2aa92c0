import type { Db } from '../db/db.ts';

export interface IdempotencyRow {
  fingerprint: string;
  /** Null while the first request with the key is still running. */
  status: number | null;
  content_type: string | null;
  /** Null when the answer was too large to keep (or the request is still running). */
  body: string | null;
  created_at: number;
}

/** Stored answers of mutating requests, by user and Idempotency-Key. */
export const idempotencyRepo = {
  /** Claims a key for a request about to run; false when the user already has a row for it. */
  async claim(db: Db, userId: string, key: string, fingerprint: string, now: number): Promise<boolean> {
    // ON CONFLICT DO NOTHING is the single decision point: on PostgreSQL a concurrent insert of the same
    // key waits for the first to commit and then inserts nothing; SQLite runs statements one at a time.
    const r = await db.run(
      `INSERT INTO idempotency_keys (user_id, idem_key, fingerprint, created_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (user_id, idem_key) DO NOTHING`,
      [userId, key, fingerprint, now],
    );
    return r.changes === 1;
  },
  find(db: Db, userId: string, key: string) {
    return db.get<IdempotencyRow>(
      'SELECT fingerprint, status, content_type, body, created_at FROM idempotency_keys WHERE user_id = ? AND idem_key = ?',
      [userId, key],
    );
  },
  /** Drops a user's row when it has expired, or when it is a claim abandoned since `staleBefore`. */
  async dropIfStale(db: Db, userId: string, key: string, expiredBefore: number, staleBefore: number) {
    const r = await db.run(
      `DELETE FROM idempotency_keys WHERE user_id = ? AND idem_key = ?
       AND (created_at < ? OR (status IS NULL AND created_at < ?))`,
      [userId, key, expiredBefore, staleBefore],
    );
    return r.changes === 1;
  },
  /** Records the answer of a claimed request. */
  settle(
    db: Db,
    userId: string,
    key: string,
    answer: { status: number; contentType: string | null; body: string | null },
  ) {
    return db.run(
      'UPDATE idempotency_keys SET status = ?, content_type = ?, body = ? WHERE user_id = ? AND idem_key = ? AND status IS NULL',
      [answer.status, answer.contentType, answer.body, userId, key],
    );
  },
  /** Gives a key back (its request failed in a way worth retrying). */
  release(db: Db, userId: string, key: string) {
    return db.run('DELETE FROM idempotency_keys WHERE user_id = ? AND idem_key = ? AND status IS NULL', [userId, key]);
  },
  /** Deletes every row created before `before`. */
  prune(db: Db, before: number) {
    return db.run('DELETE FROM idempotency_keys WHERE created_at < ?', [before]);
  },
};
