import { rm, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { AppContext } from '../context.ts';
import { BACKUP_NAME, backupDir, backupsRoot, exists, list, RESTORE_STAGE_PREFIX } from './backup-files.ts';
import { backupsRepo } from './backups.repo.ts';

/**
 * At api start, before any engine starts: what a create, restore or delete killed half-way left behind
 * is resolved. Temporary files go; a backup file without a row (a create that never committed, a delete
 * that removed the row) goes; a row without a file (a create killed between its row and its rename) goes.
 * A restore's staged copy beside a server's engine.db goes: the rename had not happened, so the live
 * database is the old one, whole.
 */
export async function reconcileBackups(ctx: AppContext): Promise<void> {
  const { dataDir } = ctx.config;
  const rows = new Map((await backupsRepo.all(ctx.db)).map((r) => [r.owner_id, r]));
  for (const ownerId of await list(backupsRoot(dataDir))) {
    const dir = backupDir(dataDir, ownerId);
    for (const name of await list(dir)) {
      if (name === BACKUP_NAME && rows.has(ownerId)) continue;
      ctx.log.warn({ file: join(dir, name) }, 'removing a backup file left by an unfinished create or delete');
      await rm(join(dir, name), { force: true, recursive: true });
    }
    await rmdir(dir).catch(() => {}); // only when empty
  }
  for (const row of rows.values()) {
    if (await exists(join(backupDir(dataDir, row.owner_id), BACKUP_NAME))) continue;
    ctx.log.warn({ owner: row.owner_id }, 'dropping the record of a backup whose file is missing');
    await backupsRepo.delete(ctx.db, row);
  }
  const servers = join(dataDir, 'servers');
  for (const id of await list(servers))
    for (const name of await list(join(servers, id)))
      if (name.startsWith(RESTORE_STAGE_PREFIX)) {
        ctx.log.warn({ file: join(servers, id, name) }, 'removing the staged copy of an unfinished restore');
        await rm(join(servers, id, name), { force: true });
      }
}
