import { join } from 'node:path';
import { preparePrivateDataDir, preparePrivateSqliteFile } from '../private-files.ts';
import { type DatabaseTimeouts, type Db, DEFAULT_DATABASE_TIMEOUTS } from './db.ts';
import { migrate } from './migrate.ts';
import { openPostgres } from './postgres.ts';
import { openSqlite } from './sqlite.ts';

/**
 * Opens the platform database named by the config and brings its schema up to date. The data
 * directory is made private first (0700, files 0600): it holds the session key and servers' data.
 */
export async function openDatabase(opts: {
  databaseUrl?: string;
  dataDir: string;
  /** The config's timeouts (config/database.ts); unset: their defaults. */
  database?: DatabaseTimeouts;
}): Promise<Db> {
  preparePrivateDataDir(opts.dataDir);
  let db: Db;
  if (opts.databaseUrl) db = openPostgres(opts.databaseUrl, opts.database);
  else {
    const file = join(opts.dataDir, 'canopy.db');
    preparePrivateSqliteFile(file);
    db = openSqlite(file, opts.database);
  }
  // Migrations may take as long as they need (an index built on a large table): on PostgreSQL they run on a
  // connection of their own without the statement and answer timeouts that bound requests.
  const migrating = opts.databaseUrl
    ? openPostgres(opts.databaseUrl, { ...(opts.database ?? DEFAULT_DATABASE_TIMEOUTS), statementMs: 0, queryMs: 0 })
    : db;
  try {
    await migrate(migrating);
  } catch (error) {
    await db.close().catch(() => {});
    throw error;
  } finally {
    if (migrating !== db) await migrating.close().catch(() => {});
  }
  return db;
}
