import { join } from 'node:path';
import type { Db } from './db.ts';
import { migrate } from './migrate.ts';
import { openPostgres } from './postgres.ts';
import { openSqlite } from './sqlite.ts';

/** Opens the platform database named by the config and brings its schema up to date. */
export async function openDatabase(opts: { databaseUrl?: string; dataDir: string }): Promise<Db> {
  const db = opts.databaseUrl ? openPostgres(opts.databaseUrl) : openSqlite(join(opts.dataDir, 'canopy.db'));
  try {
    await migrate(db);
  } catch (error) {
    await db.close().catch(() => {});
    throw error;
  }
  return db;
}
