import { randomUUID } from 'node:crypto';
import { copyFile, mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { backupMessages as b } from '@canopy/contract';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';
import {
  commitRename,
  exists,
  foldWal,
  fsyncPath,
  RESTORE_STAGE_PREFIX,
  removeSidecars,
  verifyDatabase,
  WAL_ASIDE_SUFFIX,
} from './backup-files.ts';
import type { BackupRow } from './backups.repo.ts';
import { faultPoint } from './fault.ts';

/** Checks a file against the backup's record; throws the reason it cannot be restored. */
export async function assertIntact(path: string, row: BackupRow, integrity: boolean) {
  const outcome = await verifyDatabase(path, integrity);
  if (!outcome.ok && outcome.reason === 'missing') throw new AppError(422, 'backup_missing', b.missingFile);
  if (!outcome.ok) throw new AppError(422, 'backup_damaged', b.damagedIntegrity);
  if (outcome.sha256 !== row.sha256 || outcome.bytes !== row.bytes)
    throw new AppError(422, 'backup_damaged', b.damagedChecksum);
}

/** The swap itself, with the engine stopped and the power lock held; `source` is the verified local copy. */
export async function swapIn(ctx: AppContext, serverId: string, row: BackupRow, source: string) {
  const dataDir = ctx.servers.runtime.dataDir(serverId);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const live = join(dataDir, 'engine.db');
  const staged = join(dataDir, `${RESTORE_STAGE_PREFIX}${randomUUID()}`);
  try {
    await copyFile(source, staged);
    // The staged copy is what goes live: its bytes must be the backup's.
    await assertIntact(staged, row, false);
    await fsyncPath(staged);
    const asideWal = await clearWal(ctx, live);
    await faultPoint('backup:restore-before-swap');
    try {
      await commitRename(staged, live, dataDir);
    } catch (error) {
      if (asideWal) await rename(asideWal, `${live}-wal`).catch(() => {});
      throw error;
    }
    if (asideWal) await rm(asideWal, { force: true });
  } finally {
    await rm(staged, { force: true });
  }
}

/**
 * No -wal of the live database may meet the restored file (SQLite would apply it). Normally it is folded
 * into the live file first. A live database too damaged to open (the reason to restore, often) cannot be
 * folded: its -wal is set aside instead (returned), put back if the swap fails, and removed once it is
 * done; reconcile.ts settles one left behind by a crash in between.
 */
async function clearWal(ctx: AppContext, live: string): Promise<string | null> {
  try {
    await foldWal(live);
    return null;
  } catch (error) {
    ctx.log.warn({ err: error, file: live }, 'the live database could not be folded; setting its WAL aside');
    const aside = `${live}${WAL_ASIDE_SUFFIX}`;
    if (await exists(`${live}-wal`)) await rename(`${live}-wal`, aside);
    await removeSidecars(live);
    await fsyncPath(dirname(live));
    return (await exists(aside)) ? aside : null;
  }
}
