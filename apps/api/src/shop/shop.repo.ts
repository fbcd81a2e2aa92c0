import { randomUUID } from 'node:crypto';
import type { ShopItemType } from '@canopy/contract';
import type { Db } from '../db/db.ts';

/** What a shop item does to the buyer's account, per unit (migration 7). */
export type ShopEffect = 'server_days' | 'slots' | 'storage_mb';

export interface ShopItemRow {
  id: string;
  name: string;
  description: string;
  cost: number;
  type: ShopItemType;
  effect: ShopEffect;
  effect_amount: number;
}

const columns = 'id, name, description, cost, type, effect, effect_amount';

/** The shop's catalogue (operator-editable rows) and what users bought from it. */
export const shopRepo = {
  /** Items on sale, in the operator's order. */
  listActive(db: Db) {
    return db.all<ShopItemRow>(`SELECT ${columns} FROM shop_items WHERE active = 1 ORDER BY sort_order, id`);
  },
  /** The items on sale among `ids` (ids not on sale are simply missing). */
  findActive(db: Db, ids: readonly string[]) {
    if (ids.length === 0) return Promise.resolve([] as ShopItemRow[]);
    return db.all<ShopItemRow>(
      `SELECT ${columns} FROM shop_items WHERE active = 1 AND id IN (${ids.map(() => '?').join(', ')})`,
      ids,
    );
  },
  /** Ids of the one_time items a user bought. */
  async oneTimeBought(db: Db, userId: string): Promise<Set<string>> {
    const rows = await db.all<{ item_id: string }>('SELECT item_id FROM purchases WHERE user_id = ? AND one_time = 1', [
      userId,
    ]);
    return new Set(rows.map((r) => r.item_id));
  },
  /** Records a purchase; the partial unique index refuses a second row for a one_time item. */
  addPurchase(db: Db, userId: string, item: ShopItemRow, quantity: number, now: number) {
    return db.run(
      `INSERT INTO purchases (id, user_id, item_id, one_time, quantity, unit_cost, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
      [randomUUID(), userId, item.id, item.type === 'one_time' ? 1 : 0, quantity, Number(item.cost), now],
    );
  },
};
