import type { SqlValue } from './db.ts';

/** Largest answer kept: bigger lists are rare reads, and copying them out would cost what the query does. */
const MAX_ROWS = 100;
/** Entries kept before the cache starts over (reads of ~100 users' sessions, profiles and settings). */
const MAX_ENTRIES = 4000;

// Reads whose answer depends on more than the data and the parameters are never kept.
const UNCACHEABLE = /random|'now'|current_(time|date|timestamp)|unixepoch\s*\(\s*\)|changes\s*\(|last_insert_rowid/i;

/** True for a statement that only reads and whose answer depends on nothing but the data and its parameters. */
export function isCacheableRead(sql: string): boolean {
  return (
    /^\s*(select|with)\b/i.test(sql) && !/\b(insert|update|delete|returning)\b/i.test(sql) && !UNCACHEABLE.test(sql)
  );
}

/** A key no two different parameter lists share (strings are JSON-quoted, so separators inside them are escaped). */
function keyOf(sql: string, params: readonly SqlValue[]): string {
  let key = sql;
  for (const p of params)
    key += `\u0000${typeof p === 'string' ? JSON.stringify(p) : typeof p === 'bigint' ? `${p}n` : String(p)}`;
  return key;
}

const NONE = Symbol('no row');
type Entry = readonly Record<string, unknown>[] | Record<string, unknown> | typeof NONE;

// Rows keep node:sqlite's null prototype, so a cached answer is indistinguishable from a fresh one.
const copy = (row: Record<string, unknown>): Record<string, unknown> => Object.assign(Object.create(null), row);

/**
 * The answers of recent reads of one SQLite connection, kept while nothing can have changed them (ADR 0025).
 * Exact, not timed: every write through this connection empties it at once, and a commit by any other
 * connection or process (a CLI command, a test writing the file) is noticed through `PRAGMA data_version`,
 * checked on the first read of each event-loop turn. So all reads of one turn see one snapshot, as if they
 * ran in one read transaction, and the first read after any change reads the database again.
 * Callers get copies: a caller changing a row it got cannot change what the next caller gets.
 */
export class ReadCache {
  private readonly entries = new Map<string, Entry>();
  private version: number | undefined;
  private checked = false;
  private readonly endTurn = () => {
    this.checked = false;
  };

  private readonly dataVersion: () => number;

  /** dataVersion reads `PRAGMA data_version` of the cached connection. */
  constructor(dataVersion: () => number) {
    this.dataVersion = dataVersion;
  }

  /** Something was written through this connection (data_version does not count a connection's own commits). */
  invalidate() {
    this.entries.clear();
  }

  private fresh() {
    if (this.checked) return;
    this.checked = true;
    setImmediate(this.endTurn);
    const version = this.dataVersion();
    if (version !== this.version) {
      this.version = version;
      this.entries.clear();
    }
  }

  all<T>(sql: string, params: readonly SqlValue[], read: () => T[]): T[] {
    this.fresh();
    const key = keyOf(sql, params);
    const hit = this.entries.get(key);
    if (Array.isArray(hit)) return hit.map(copy) as T[];
    const rows = read();
    if (rows.length <= MAX_ROWS)
      this.keep(
        key,
        rows.map((r) => copy(r as Record<string, unknown>)),
      );
    return rows;
  }

  get<T>(sql: string, params: readonly SqlValue[], read: () => T | undefined): T | undefined {
    this.fresh();
    const key = keyOf(sql, params);
    const hit = this.entries.get(key);
    if (hit === NONE) return undefined;
    if (hit && !Array.isArray(hit)) return copy(hit as Record<string, unknown>) as T;
    const row = read();
    this.keep(key, row === undefined ? NONE : copy(row as Record<string, unknown>));
    return row;
  }

  private keep(key: string, entry: Entry) {
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(key, entry);
  }
}
