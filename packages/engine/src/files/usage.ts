import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ITEMS_CACHE_DIR } from '../items/items-cache.ts';
import { DATABASE_NAME } from './names.ts';

const size = (path: string) =>
  lstat(path).then(
    (s) => (s.isFile() ? s.size : 0),
    () => 0,
  );

async function folderBytes(dir: string, skip?: string): Promise<number> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  let total = 0;
  for (const entry of entries) {
    if (entry.name === skip) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += await folderBytes(path);
    else if (entry.isFile()) total += await size(path);
  }
  return total;
}

/**
 * What a server stores (GET /usage): every file of its data directory, and its database with its write-ahead
 * log. The operator's item database in items-cache/ is not the server's and is left out.
 */
export async function usage(dataDir: string): Promise<{ bytes: number; databaseBytes: number }> {
  const live = join(dataDir, DATABASE_NAME);
  const [bytes, db, wal] = await Promise.all([folderBytes(dataDir, ITEMS_CACHE_DIR), size(live), size(`${live}-wal`)]);
  return { bytes, databaseBytes: db + wal };
}
