/** A parameter value both SQLite and PostgreSQL accept; booleans are stored as 0/1. */
export type SqlValue = string | number | bigint | boolean | null;

/**
 * The one way the api talks to its database. SQL is written once with `?` placeholders in the
 * portable subset both engines share; repositories are the only callers.
 */
export interface Db {
  readonly dialect: 'sqlite' | 'postgres';
  /** All rows of a query. */
  all<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  /** The first row of a query, or undefined. */
  get<T>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined>;
  /** Runs a statement and tells how many rows it changed. */
  run(sql: string, params?: readonly SqlValue[]): Promise<{ changes: number }>;
  /** Runs fn inside one transaction; a throw rolls everything back. */
  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** True when an error is a unique-constraint violation on either engine. */
export function isUniqueViolation(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return code === '23505' || /UNIQUE constraint failed/i.test(error.message);
}

/**
 * The constraint a unique violation broke: PostgreSQL's constraint name (`servers_game_port_key`) or
 * SQLite's column list (`servers.game_port`); undefined for any other error. Callers match on the
 * column name, which both forms contain.
 */
export function violatedUnique(error: unknown): string | undefined {
  if (!isUniqueViolation(error)) return undefined;
  const constraint = (error as { constraint?: unknown }).constraint;
  if (typeof constraint === 'string') return constraint;
  return /UNIQUE constraint failed: (.*)$/i.exec((error as Error).message)?.[1] ?? '';
}

/**
 * True when an error means the platform's storage is full: SQLite's SQLITE_FULL (also its size cap),
 * PostgreSQL's disk_full (53100), or a file write's ENOSPC or EDQUOT.
 */
export function isStorageFull(error: unknown): boolean {
  const e = error as { errcode?: unknown; code?: unknown } | null;
  if (typeof e?.errcode === 'number' && (e.errcode & 0xff) === 13) return true;
  return e?.code === '53100' || e?.code === 'ENOSPC' || e?.code === 'EDQUOT';
}
