import { readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { TEXTURE_CACHE_DIR } from '../items/effective-items.ts';
import { ITEMS_CACHE_DIR } from '../items/items-cache.ts';
import type { Logger } from '../log.ts';
import { UNFINISHED_WRITE } from './names.ts';

/** Prefix of a snapshot's temporary copy in the data directory (snapshot.ts). */
export const SNAPSHOT_PREFIX = 'engine.db.snapshot-';
/**
 * A restore's staged copy: a temporary file beside engine.db (restore.ts), or `engine.db.restore-<uuid>` as the api
 * named it when it restored by path itself (before ADR 0040), so that an upgrade settles one of those too.
 */
export const RESTORE_STAGED = /^engine\.db\.([0-9a-f]{12}\.tmp|restore-[0-9a-f-]{36})$/;
/** The live database's -wal set aside by a restore that could not fold it (restore.ts). */
export const WAL_ASIDE = 'engine.db-wal.before-restore';

/** A snapshot's copy or a restore's staged copy at the top of the data directory. */
const leftover = (name: string) => name.startsWith(SNAPSHOT_PREFIX) || RESTORE_STAGED.test(name);

const names = (dir: string) => {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
};

/**
 * At start, in either mode and before the database is opened: what a killed engine left half-done goes. A
 * restore killed before its rename (its staged copy still there) gets the -wal it set aside back, so the live
 * database is exactly the old one; one killed after it has committed, and the old -wal goes. Then unfinished
 * writes (`<name>.<12 hex>.tmp`, the staged copy among them) and snapshot copies are removed.
 */
export function sweepUnfinished(dataDir: string, log: Logger): void {
  const top = names(dataDir);
  if (top.includes(WAL_ASIDE)) {
    const staged = top.some((n) => RESTORE_STAGED.test(n));
    if (staged) renameSync(join(dataDir, WAL_ASIDE), join(dataDir, 'engine.db-wal'));
    else rmSync(join(dataDir, WAL_ASIDE), { force: true });
    log.warn(`A restore was cut short ${staged ? 'before' : 'after'} it replaced the database; settled`);
  }
  let removed = 0;
  for (const dir of [dataDir, join(dataDir, TEXTURE_CACHE_DIR), join(dataDir, ITEMS_CACHE_DIR)])
    for (const name of dir === dataDir ? top : names(dir))
      if (UNFINISHED_WRITE.test(name) || (dir === dataDir && leftover(name))) {
        rmSync(join(dir, name), { force: true });
        removed++;
      }
  if (removed) log.warn(`Removed ${removed} temporary file(s) of writes or snapshots a stop cut short`);
}
