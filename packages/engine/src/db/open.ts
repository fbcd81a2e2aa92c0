import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { ensurePrivateDir, ensurePrivateFile, narrowMode, PRIVATE_FILE } from '../private-files.ts';
import { migrations as all, type Migration } from './migrations.ts';

/** The database is held by another process (another engine on the same data directory). */
export class DatabaseLockedError extends Error {}

const SQLITE_BUSY = 5;

/**
 * Opens the engine's SQLite file in WAL mode and takes an exclusive lock on it for the life of the
 * process: a second engine on the same data directory fails here even if it raced past the
 * engine.json check, and the lock dies with the process, so a SIGKILL leaves nothing to clean up.
 */
export function openDatabase(file: string): DatabaseSync {
  // 0600 before SQLite opens it: its -wal and -shm files take the database file's mode.
  ensurePrivateDir(dirname(file));
  ensurePrivateFile(file);
  for (const extra of ['-wal', '-shm', '-journal']) narrowMode(`${file}${extra}`, PRIVATE_FILE);
  const db = new DatabaseSync(file, { timeout: 250 });
  try {
    // EXCLUSIVE before WAL: the WAL index then lives in process memory (no -shm file to go stale).
    db.exec('PRAGMA locking_mode = EXCLUSIVE');
    db.exec('PRAGMA journal_mode = WAL');
    // NORMAL: a commit survives a crash of this process (what SIGKILL does); only a power loss may
    // lose the last commits, in exchange for not paying an fsync per write.
    db.exec('PRAGMA synchronous = NORMAL');
    db.exec('BEGIN IMMEDIATE; COMMIT');
    migrate(db);
  } catch (error) {
    db.close();
    if ((error as { errcode?: number }).errcode === SQLITE_BUSY)
      throw new DatabaseLockedError(
        `${file} is locked by another process (is another engine using this data directory?)`,
      );
    throw error;
  }
  return db;
}

/** Runs fn inside one write transaction; a throw rolls everything back. */
export function transaction<T>(db: DatabaseSync, fn: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = fn();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

/** Applies every migration newer than the database's; returns the versions applied. */
export function migrate(db: DatabaseSync, migrations: Migration[] = all): number[] {
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)',
  );
  const done = new Set(
    db
      .prepare('SELECT version FROM schema_migrations')
      .all()
      .map((r) => Number(r.version)),
  );
  const applied: number[] = [];
  for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
    if (done.has(m.version)) continue;
    transaction(db, () => {
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        m.version,
        m.name,
        Date.now(),
      );
    });
    applied.push(m.version);
  }
  return applied;
}

/** A value of the meta table, or undefined. */
export function getMeta(db: DatabaseSync, key: string): string | undefined {
  const row = db.prepare('SELECT value FROM meta WHERE key = ?').get(key);
  return row ? String(row.value) : undefined;
}

/** Sets a value of the meta table. */
export function setMeta(db: DatabaseSync, key: string, value: string): void {
  db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(
    key,
    value,
  );
}
