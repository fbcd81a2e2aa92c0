import type { RedeemCodeType } from '@canopy/contract';
import type { Db } from '../db/db.ts';

export interface RedeemCodeRow {
  code_key: string;
  code: string;
  type: RedeemCodeType;
  amount: number;
  stock: number;
  claimed: number;
  is_public: number;
  expires_at: number | null;
  created_by: string;
  created_at: number;
}

const names = [
  'code_key',
  'code',
  'type',
  'amount',
  'stock',
  'claimed',
  'is_public',
  'expires_at',
  'created_by',
  'created_at',
];
const columns = names.join(', ');
const codeColumns = names.map((n) => `c.${n}`).join(', ');

/** Numbers come back as strings from PostgreSQL's BIGINT: read them once, here. */
const toRow = (r: RedeemCodeRow): RedeemCodeRow => ({
  ...r,
  amount: Number(r.amount),
  stock: Number(r.stock),
  claimed: Number(r.claimed),
  is_public: Number(r.is_public),
  expires_at: r.expires_at === null ? null : Number(r.expires_at),
  created_at: Number(r.created_at),
});

/** Redeem codes and who claimed them. */
export const redeemRepo = {
  async find(db: Db, key: string): Promise<RedeemCodeRow | undefined> {
    const row = await db.get<RedeemCodeRow>(`SELECT ${columns} FROM redeem_codes WHERE code_key = ?`, [key]);
    return row && toRow(row);
  },

  /** Public codes, newest first, with whether `userId` claimed each. */
  async listPublic(db: Db, userId: string, limit: number) {
    const rows = await db.all<RedeemCodeRow & { mine: number | string }>(
      `SELECT ${codeColumns},
         CASE WHEN EXISTS (SELECT 1 FROM redeem_claims r WHERE r.code_key = c.code_key AND r.user_id = ?)
           THEN 1 ELSE 0 END AS mine
       FROM redeem_codes c WHERE c.is_public = 1 ORDER BY c.created_at DESC, c.code_key LIMIT ?`,
      [userId, limit],
    );
    return rows.map((r) => ({ ...toRow(r), mine: Number(r.mine) === 1 }));
  },

  /** Every code, newest first (CLI and admin panel). */
  async list(db: Db, limit: number) {
    const rows = await db.all<RedeemCodeRow>(
      `SELECT ${columns} FROM redeem_codes ORDER BY created_at DESC, code_key LIMIT ?`,
      [limit],
    );
    return rows.map(toRow);
  },

  /** Who claimed each of these codes, oldest first: one query for a whole list. */
  async claimantsOf(db: Db, keys: readonly string[]) {
    if (keys.length === 0) return [];
    return db.all<{ code_key: string; user_id: string; grow_id: string | null }>(
      `SELECT r.code_key, r.user_id, u.grow_id FROM redeem_claims r JOIN users u ON u.id = r.user_id
       WHERE r.code_key IN (${keys.map(() => '?').join(', ')}) ORDER BY r.claimed_at, r.user_id`,
      [...keys],
    );
  },

  insert(db: Db, row: Omit<RedeemCodeRow, 'claimed'>) {
    return db.run(
      `INSERT INTO redeem_codes (code_key, code, type, amount, stock, claimed, is_public, expires_at, created_by, created_at)
       VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?, ?)`,
      [
        row.code_key,
        row.code,
        row.type,
        row.amount,
        row.stock,
        row.is_public,
        row.expires_at,
        row.created_by,
        row.created_at,
      ],
    );
  },

  /**
   * Deletes a code; false when there was none. Its claims stay: they are the users' redemption history,
   * and a code later created with the same text still counts as claimed by them.
   */
  async remove(db: Db, key: string): Promise<boolean> {
    return (await db.run('DELETE FROM redeem_codes WHERE code_key = ?', [key])).changes === 1;
  },

  async hasClaim(db: Db, key: string, userId: string): Promise<boolean> {
    return (
      (await db.get('SELECT 1 AS x FROM redeem_claims WHERE code_key = ? AND user_id = ?', [key, userId])) !== undefined
    );
  },

  /**
   * Takes one unit of stock; false when none is left. The condition is re-checked under the row's lock,
   * so concurrent claims can never push `claimed` past `stock` (the table's CHECK stands behind it).
   */
  async takeOne(db: Db, key: string): Promise<boolean> {
    const r = await db.run('UPDATE redeem_codes SET claimed = claimed + 1 WHERE code_key = ? AND claimed < stock', [
      key,
    ]);
    return r.changes === 1;
  },

  /** Records a claim; the primary key (code, user) refuses a second one. */
  addClaim(db: Db, claim: { key: string; userId: string; code: string; reward: string; now: number }) {
    return db.run('INSERT INTO redeem_claims (code_key, user_id, code, reward, claimed_at) VALUES (?, ?, ?, ?, ?)', [
      claim.key,
      claim.userId,
      claim.code,
      claim.reward,
      claim.now,
    ]);
  },

  /** A user's redemption history, newest first. */
  async history(db: Db, userId: string, limit: number) {
    const rows = await db.all<{ code: string; reward: string; claimed_at: number }>(
      'SELECT code, reward, claimed_at FROM redeem_claims WHERE user_id = ? ORDER BY claimed_at DESC, code LIMIT ?',
      [userId, limit],
    );
    return rows.map((r) => ({ code: r.code, reward: r.reward, claimedAt: Number(r.claimed_at) }));
  },
};
