import type { Db } from '../db/db.ts';

export interface RefreshTokenRow {
  id: string;
  user_id: string;
  family_id: string;
  expires_at: number;
  used_at: number | null;
  revoked_at: number | null;
  /** The token that replaced this one, sealed, kept only during the refresh grace window. */
  successor_sealed: string | null;
}

const COLUMNS = 'id, user_id, family_id, expires_at, used_at, revoked_at, successor_sealed';

/** Stored refresh tokens (hashed), grouped in families that rotate together. */
export const refreshTokensRepo = {
  insert(db: Db, row: { id: string; userId: string; familyId: string; hash: string; now: number; expiresAt: number }) {
    return db.run(
      'INSERT INTO refresh_tokens (id, user_id, family_id, token_hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)',
      [row.id, row.userId, row.familyId, row.hash, row.now, row.expiresAt],
    );
  },
  findByHash(db: Db, hash: string) {
    return db.get<RefreshTokenRow>(`SELECT ${COLUMNS} FROM refresh_tokens WHERE token_hash = ?`, [hash]);
  },
  findById(db: Db, id: string) {
    return db.get<RefreshTokenRow>(`SELECT ${COLUMNS} FROM refresh_tokens WHERE id = ?`, [id]);
  },
  /**
   * Marks a token used; false when another request used it first. The condition makes this the one
   * decision point under concurrency: on PostgreSQL a second UPDATE waits for the first to commit and
   * then matches nothing; on SQLite transactions are serialised.
   */
  async markUsed(db: Db, id: string, now: number): Promise<boolean> {
    const r = await db.run('UPDATE refresh_tokens SET used_at = ? WHERE id = ? AND used_at IS NULL', [now, id]);
    return r.changes === 1;
  },
  /** Keeps the sealed successor of a just-used token for the grace window. */
  setSuccessor(db: Db, id: string, sealed: string) {
    return db.run('UPDATE refresh_tokens SET successor_sealed = ? WHERE id = ?', [sealed, id]);
  },
  /** Drops the sealed successors of a family whose grace window closed before `usedBefore`. */
  forgetSuccessors(db: Db, familyId: string, usedBefore: number) {
    return db.run(
      'UPDATE refresh_tokens SET successor_sealed = NULL WHERE family_id = ? AND successor_sealed IS NOT NULL AND used_at < ?',
      [familyId, usedBefore],
    );
  },
  revokeFamily(db: Db, familyId: string, now: number) {
    return db.run(
      'UPDATE refresh_tokens SET revoked_at = COALESCE(revoked_at, ?), successor_sealed = NULL WHERE family_id = ?',
      [now, familyId],
    );
  },
  async isFamilyRevoked(db: Db, familyId: string): Promise<boolean> {
    const row = await db.get<{ n: number }>(
      'SELECT COUNT(*) AS n FROM refresh_tokens WHERE family_id = ? AND revoked_at IS NOT NULL',
      [familyId],
    );
    return Number(row?.n ?? 0) > 0;
  },
};
