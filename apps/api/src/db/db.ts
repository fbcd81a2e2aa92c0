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
