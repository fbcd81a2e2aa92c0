import { rename, rm, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { AppContext } from '../context.ts';
import {
  BACKUP_NAME,
  backupDir,
  backupsRoot,
  exists,
  list,
  RESTORE_STAGE_PREFIX,
  WAL_ASIDE_SUFFIX,
} from './backup-files.ts';
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
  for (const id of await list(servers)) await settleRestore(ctx, join(servers, id));
}

/**
 * A restore killed half-way in a server's directory. Its staged copy still there means the rename (the
 * commit point) never happened: the copy goes and a -wal it set aside goes back, so the live database is
 * exactly the old one. No staged copy but a set-aside -wal means it committed: the old -wal goes.
 */
async function settleRestore(ctx: AppContext, dir: string) {
  const names = await list(dir);
  const staged = names.filter((n) => n.startsWith(RESTORE_STAGE_PREFIX));
  for (const name of staged) {
    ctx.log.warn({ file: join(dir, name) }, 'removing the staged copy of an unfinished restore');
    await rm(join(dir, name), { force: true });
  }
  const aside = join(dir, `engine.db${WAL_ASIDE_SUFFIX}`);
  if (!names.includes(`engine.db${WAL_ASIDE_SUFFIX}`)) return;
  if (staged.length) await rename(aside, join(dir, 'engine.db-wal'));
  else await rm(aside, { force: true });
}
