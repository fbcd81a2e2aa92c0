import { join } from 'node:path';
import { preparePrivateDataDir, preparePrivateSqliteFile } from '../private-files.ts';
import type { Db } from './db.ts';
import { migrate } from './migrate.ts';
import { openPostgres } from './postgres.ts';
import { openSqlite } from './sqlite.ts';

/**
 * Opens the platform database named by the config and brings its schema up to date. The data
 * directory is made private first (0700, files 0600): it holds the session key and servers' data.
 */
export async function openDatabase(opts: { databaseUrl?: string; dataDir: string }): Promise<Db> {
  preparePrivateDataDir(opts.dataDir);
  let db: Db;
  if (opts.databaseUrl) db = openPostgres(opts.databaseUrl);
  else {
    const file = join(opts.dataDir, 'canopy.db');
    preparePrivateSqliteFile(file);
    db = openSqlite(file);
  }
  try {
    await migrate(db);
  } catch (error) {
    await db.close().catch(() => {});
    throw error;
  }
  return db;
}
