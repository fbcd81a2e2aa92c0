import type { Db } from '../db/db.ts';

/** The record of an account's one backup (its file is at backupFile(ownerId), see backup-files.ts). */
export interface BackupRow {
  owner_id: string;
  created_at: number;
  bytes: number;
  sha256: string;
}

const columns = 'owner_id, created_at, bytes, sha256';
const normalise = (r: BackupRow | undefined): BackupRow | undefined =>
  r && { ...r, created_at: Number(r.created_at), bytes: Number(r.bytes) };

/** Backups metadata: one row per account (owner_id is the primary key). */
export const backupsRepo = {
  async find(db: Db, ownerId: string) {
    return normalise(await db.get<BackupRow>(`SELECT ${columns} FROM backups WHERE owner_id = ?`, [ownerId]));
  },
  async all(db: Db) {
    return (await db.all<BackupRow>(`SELECT ${columns} FROM backups`)).map((r) => normalise(r) as BackupRow);
  },
  /** Throws a unique violation when the account already has one (see isUniqueViolation). */
  insert(db: Db, row: BackupRow) {
    return db.run('INSERT INTO backups (owner_id, created_at, bytes, sha256) VALUES (?, ?, ?, ?)', [
      row.owner_id,
      row.created_at,
      row.bytes,
      row.sha256,
    ]);
  },
  /** Deletes the row only if it is still the one read (a create that replaced it in between keeps its own). */
  async delete(db: Db, row: BackupRow) {
    return (await db.run('DELETE FROM backups WHERE owner_id = ? AND sha256 = ?', [row.owner_id, row.sha256])).changes;
  },
  async bytesOf(db: Db, ownerId: string): Promise<number> {
    const row = await db.get<{ bytes: number }>('SELECT bytes FROM backups WHERE owner_id = ?', [ownerId]);
    return row ? Number(row.bytes) : 0;
  },
};
