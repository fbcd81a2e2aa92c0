import { rm, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { AppContext } from '../context.ts';
import { BACKUP_NAME, backupDir, backupFile, backupsRoot, exists, list, verifyDatabase } from './backup-files.ts';
import { type BackupStore, backupStore, type StoredBackup } from './backup-store.ts';
import { type BackupRow, backupsRepo } from './backups.repo.ts';

/**
 * How old an object without a row must be before reconcile removes it from an S3 store: younger, it may be the
 * upload of another api replica whose row is about to be written (ADR 0037).
 */
export const ORPHAN_GRACE_MS = 60 * 60_000;

/**
 * At api start, before any engine starts: what a create, restore or delete killed half-way left behind
 * is resolved. Temporary files go; a backup without a row (a create killed between storing it and its row, a
 * delete that removed the row) goes; a row without a backup goes. (A restore cut short is the engine's to settle:
 * it does so when it starts, docs/engine-files-api.md.)
 */
export async function reconcileBackups(ctx: AppContext): Promise<void> {
  const { dataDir } = ctx.config;
  const store = backupStore(ctx);
  const rows = new Map((await backupsRepo.all(ctx.db)).map((r) => [r.owner_id, r]));
  for (const ownerId of await list(backupsRoot(dataDir))) {
    const dir = backupDir(dataDir, ownerId);
    for (const name of await list(dir)) {
      // With an S3 store a local backup.db is one made before the store changed: moved below, never dropped.
      if (name === BACKUP_NAME && (rows.has(ownerId) || store.kind === 's3')) continue;
      ctx.log.warn({ file: join(dir, name) }, 'removing a backup file left by an unfinished create or delete');
      await rm(join(dir, name), { force: true, recursive: true });
    }
    await rmdir(dir).catch(() => {}); // only when empty
  }
  await reconcileStore(ctx, store, rows);
}

/** Backups without rows go, rows without backups go (an S3 store that cannot be listed is left for next time). */
async function reconcileStore(ctx: AppContext, store: BackupStore, rows: Map<string, BackupRow>) {
  let stored: StoredBackup[];
  try {
    stored = await store.list();
  } catch (error) {
    ctx.log.error({ err: error }, 'the backup store could not be listed; its leftovers stay until the next start');
    return;
  }
  const held = new Set<string>();
  for (const s of stored) {
    const row = rows.get(s.ownerId);
    if (row && (s.sha256 === undefined || s.sha256 === row.sha256)) {
      held.add(s.ownerId);
      continue;
    }
    if (store.kind === 's3' && ctx.now() - s.modifiedAt < ORPHAN_GRACE_MS) continue;
    ctx.log.warn({ owner: s.ownerId, sha256: s.sha256 }, 'removing a stored backup that no row records');
    await store.delete({ owner_id: s.ownerId, sha256: s.sha256 ?? '' }).catch(() => {});
  }
  for (const row of rows.values()) {
    if (held.has(row.owner_id) || (await moveIntoStore(ctx, store, row))) continue;
    ctx.log.warn({ owner: row.owner_id }, 'dropping the record of a backup whose file is missing');
    await backupsRepo.delete(ctx.db, row);
  }
}

/**
 * A row whose backup is still a local backup.db from before the S3 store was configured: uploaded (when it is
 * the recorded one) and the local file removed, so switching stores keeps every account's backup.
 */
async function moveIntoStore(ctx: AppContext, store: BackupStore, row: BackupRow): Promise<boolean> {
  const local = backupFile(ctx.config.dataDir, row.owner_id);
  if (store.kind !== 's3' || !(await exists(local))) return false;
  const outcome = await verifyDatabase(local, false);
  if (!outcome.ok || outcome.sha256 !== row.sha256 || outcome.bytes !== row.bytes) return false;
  try {
    await store.put(row, local, row.bytes);
  } catch (error) {
    // Kept as it is (row and file); the next start tries again.
    ctx.log.error({ err: (error as Error).cause ?? error, owner: row.owner_id }, 'a local backup could not be moved');
    return true;
  }
  ctx.log.info({ owner: row.owner_id }, 'moved a local backup into the S3 store');
  await rm(local, { force: true });
  await rmdir(backupDir(ctx.config.dataDir, row.owner_id)).catch(() => {});
  return true;
}
