import { randomUUID } from 'node:crypto';
import type { CreditHistoryEntry, CreditPack } from '@canopy/contract';
import type { Db } from '../db/db.ts';

interface PackRow {
  id: string;
  name: string;
  credits: number;
  price: number;
  currency: string;
  active: number;
  sort_order: number;
}

/** The settings row holding the operator's text on how credits are obtained (not one of the boolean switches). */
const HOW_TO_KEY = 'creditsHowTo';

const toPack = (r: PackRow): CreditPack => ({
  id: r.id,
  name: r.name,
  credits: Number(r.credits),
  price: Number(r.price),
  currency: r.currency,
  active: Number(r.active) === 1,
  sortOrder: Number(r.sort_order),
});

const COLUMNS = 'id, name, credits, price, currency, active, sort_order';

/** The credit packs (migration 19), the how-to text and a user's credit ledger. */
export const creditPacksRepo = {
  async list(db: Db, onlyActive = false): Promise<CreditPack[]> {
    const rows = await db.all<PackRow>(
      `SELECT ${COLUMNS} FROM credit_packs ${onlyActive ? 'WHERE active = 1' : ''} ORDER BY sort_order, created_at, id`,
    );
    return rows.map(toPack);
  },
  async find(db: Db, id: string): Promise<CreditPack | undefined> {
    const row = await db.get<PackRow>(`SELECT ${COLUMNS} FROM credit_packs WHERE id = ?`, [id]);
    return row && toPack(row);
  },
  async count(db: Db): Promise<number> {
    return Number((await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM credit_packs'))?.n ?? 0);
  },
  /** Makes concurrent creates wait, so the count bound holds (SQLite runs one writer at a time). */
  async lockForWrite(tx: Db): Promise<void> {
    if (tx.dialect === 'postgres') await tx.run('LOCK TABLE credit_packs IN SHARE ROW EXCLUSIVE MODE');
  },
  async insert(db: Db, pack: Omit<CreditPack, 'id'>, now: number): Promise<CreditPack> {
    const id = randomUUID();
    await db.run(`INSERT INTO credit_packs (${COLUMNS}, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, [
      id,
      pack.name,
      pack.credits,
      pack.price,
      pack.currency,
      pack.active ? 1 : 0,
      pack.sortOrder,
      now,
      now,
    ]);
    return { id, ...pack };
  },
  async update(db: Db, pack: CreditPack, now: number): Promise<void> {
    await db.run(
      `UPDATE credit_packs SET name = ?, credits = ?, price = ?, currency = ?, active = ?, sort_order = ?, updated_at = ?
       WHERE id = ?`,
      [pack.name, pack.credits, pack.price, pack.currency, pack.active ? 1 : 0, pack.sortOrder, now, pack.id],
    );
  },
  /** The operator's text, or undefined when never written. */
  async howTo(db: Db): Promise<string | undefined> {
    return (await db.get<{ value: string }>('SELECT value FROM settings WHERE key = ?', [HOW_TO_KEY]))?.value;
  },
  async saveHowTo(db: Db, text: string): Promise<void> {
    await db.run(
      'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      [HOW_TO_KEY, text],
    );
  },
  /** One page of a user's credit changes, newest first, and how many there are. */
  async history(db: Db, userId: string, limit: number, offset: number) {
    const rows = await db.all<{ id: string; delta: number; balance: number; reason: string; created_at: number }>(
      `SELECT id, delta, balance, reason, created_at FROM credit_ledger WHERE user_id = ?
       ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
      [userId, limit, offset],
    );
    const total = await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM credit_ledger WHERE user_id = ?', [userId]);
    const items: CreditHistoryEntry[] = rows.map((r) => ({
      id: r.id,
      delta: Number(r.delta),
      balance: Number(r.balance),
      reason: r.reason,
      createdAt: Number(r.created_at),
    }));
    return { items, total: Number(total?.n ?? 0) };
  },
};
