import type { Db } from '../db/db.ts';

/** An account's storage figure as the scheduler's storage pass measured it. */
export interface StorageFigure {
  ownerId: string;
  bytes: number;
}

/** Rows per statement (PostgreSQL) or per transaction (SQLite): short enough not to hold writers back. */
export const STORAGE_BATCH = 500;

/**
 * Writes the figures of the storage pass, a chunk at a time. One UPDATE per account took 34 s at 20,000
 * servers on PostgreSQL (a round trip and a commit each); a chunk is one UPDATE ... FROM (VALUES ...) there,
 * and one transaction of the same cached statement on SQLite (one commit instead of 500). A figure that did
 * not change is not rewritten.
 */
export async function writeStorageFigures(db: Db, figures: readonly StorageFigure[]): Promise<void> {
  for (let i = 0; i < figures.length; i += STORAGE_BATCH) {
    const chunk = figures.slice(i, i + STORAGE_BATCH);
    if (db.dialect === 'postgres') {
      await db.run(
        `UPDATE users AS u SET storage_used_bytes = v.bytes
         FROM (VALUES ${chunk.map(() => '(?, CAST(? AS BIGINT))').join(', ')}) AS v(id, bytes)
         WHERE u.id = v.id AND u.storage_used_bytes <> v.bytes`,
        chunk.flatMap((f) => [f.ownerId, f.bytes]),
      );
      continue;
    }
    await db.transaction(async (tx) => {
      for (const f of chunk)
        await tx.run('UPDATE users SET storage_used_bytes = ? WHERE id = ? AND storage_used_bytes <> ?', [
          f.bytes,
          f.ownerId,
          f.bytes,
        ]);
    });
  }
}
