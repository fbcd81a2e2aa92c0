import type { Db } from '../db/db.ts';

/** Lookups of the credit tools (CLI, webhook) that the users repository has no need for. */
export const creditsRepo = {
  /** A user's id from their Discord id or GrowID (any case); undefined when none matches. */
  async findUserId(db: Db, who: string): Promise<string | undefined> {
    const row = await db.get<{ id: string }>('SELECT id FROM users WHERE id = ? OR grow_id_key = ?', [
      who.trim(),
      who.trim().toLowerCase(),
    ]);
    return row?.id;
  },
  /** A user's balance, or undefined for an unknown user. */
  async balance(db: Db, userId: string): Promise<number | undefined> {
    const row = await db.get<{ credit: number }>('SELECT credit FROM users WHERE id = ?', [userId]);
    return row ? Number(row.credit) : undefined;
  },
};
