import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { type DatabaseTimeouts, type Db, DEFAULT_DATABASE_TIMEOUTS, type SqlValue } from './db.ts';
import { isCacheableRead, ReadCache } from './read-cache.ts';

type Bindable = string | number | bigint | null;

const toBindable = (params: readonly SqlValue[]): Bindable[] =>
  params.map((p) => (typeof p === 'boolean' ? (p ? 1 : 0) : p));

/** Serialises transactions: node:sqlite has one connection, and an await inside one must not let others in. */
class Lock {
  private tail: Promise<void> = Promise.resolve();
  async acquire(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((r) => {
      release = r;
    });
    const previous = this.tail;
    this.tail = previous.then(() => next);
    await previous;
    return release;
  }
  /** Resolves once no transaction holds the lock. */
  idle(): Promise<void> {
    return this.tail;
  }
  held = false;
}

/**
 * Opens (creating if needed) the SQLite file with WAL and foreign keys on. A statement that finds the file
 * locked by another connection (a script such as `npm run credits`) waits up to the busy timeout, then fails
 * with SQLITE_BUSY, which the api answers with 503.
 */
export function openSqlite(
  file: string,
  timeouts: Pick<DatabaseTimeouts, 'sqliteBusyMs'> = DEFAULT_DATABASE_TIMEOUTS,
): Db {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const raw = new DatabaseSync(file);
  raw.exec(
    `PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = ${Math.trunc(timeouts.sqliteBusyMs)};`,
  );
  const lock = new Lock();
  // Preparing is the costly part of a small query; the api runs a handful of distinct statements.
  const statements = new Map<string, StatementSync>();
  const prepare = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = raw.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  const dataVersion = raw.prepare('PRAGMA data_version');
  const cache = new ReadCache(() => Number((dataVersion.get() as { data_version: number }).data_version));
  const cacheable = new Map<string, boolean>();
  const isRead = (sql: string) => {
    let read = cacheable.get(sql);
    if (read === undefined) {
      read = isCacheableRead(sql);
      cacheable.set(sql, read);
    }
    return read;
  };

  const direct = {
    all: <T>(sql: string, params: readonly SqlValue[] = []) =>
      prepare(sql).all(...toBindable(params)) as unknown as T[],
    get: <T>(sql: string, params: readonly SqlValue[] = []) =>
      prepare(sql).get(...toBindable(params)) as unknown as T | undefined,
    run: (sql: string, params: readonly SqlValue[] = []) => ({
      changes: Number(prepare(sql).run(...toBindable(params)).changes),
    }),
  };

  // Statements outside a transaction wait while one is open so they never land inside it.
  const outside = async <R>(op: () => R): Promise<R> => {
    if (lock.held) await lock.idle();
    return op();
  };
  // Outside a transaction reads go through the read cache; anything else may have written (an INSERT …
  // RETURNING through get), so it empties the cache.
  const written = <R>(result: R): R => {
    cache.invalidate();
    return result;
  };

  const txHandle: Db = {
    dialect: 'sqlite',
    all: async (sql, params) => direct.all(sql, params),
    get: async (sql, params) => direct.get(sql, params),
    run: async (sql, params) => direct.run(sql, params),
    transaction: (fn) => fn(txHandle),
    close: async () => {},
  };

  return {
    dialect: 'sqlite',
    all: (sql, params = []) =>
      outside(() =>
        isRead(sql) ? cache.all(sql, params, () => direct.all(sql, params)) : written(direct.all(sql, params)),
      ),
    get: (sql, params = []) =>
      outside(() =>
        isRead(sql) ? cache.get(sql, params, () => direct.get(sql, params)) : written(direct.get(sql, params)),
      ),
    run: (sql, params) => outside(() => written(direct.run(sql, params))),
    async transaction(fn) {
      const release = await lock.acquire();
      lock.held = true;
      try {
        raw.exec('BEGIN IMMEDIATE');
        const result = await fn(txHandle);
        // SQLite ends a transaction by itself on some errors (SQLITE_FULL among them); if fn caught
        // such an error and went on, its later statements ran outside any transaction.
        if (!raw.isTransaction) throw new Error('the transaction was rolled back by the database');
        raw.exec('COMMIT');
        return result;
      } catch (error) {
        // Only roll back what is still open: after SQLITE_FULL SQLite already has, and a failing
        // ROLLBACK ("no transaction is active") must not hide the error that matters.
        if (raw.isTransaction)
          try {
            raw.exec('ROLLBACK');
          } catch {
            // the original error below is the one to report
          }
        throw error;
      } finally {
        cache.invalidate();
        lock.held = false;
        release();
      }
    },
    async close() {
      await lock.idle();
      raw.close();
    },
  };
}
