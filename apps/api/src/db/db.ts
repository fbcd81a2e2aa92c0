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

/**
 * How long the api waits on its database before giving up on a call (config/database.ts reads them from the
 * environment). Without them an unreachable or frozen PostgreSQL held every request for as long as it lasted.
 */
export interface DatabaseTimeouts {
  /** PostgreSQL: opening a connection, or waiting for a free one of the pool. */
  connectMs: number;
  /** PostgreSQL: the server cancels a statement running longer (statement_timeout); the connection stays usable. */
  statementMs: number;
  /** PostgreSQL: the client gives up on an answer that does not come (a frozen server) and drops the connection. */
  queryMs: number;
  /** PostgreSQL: the server ends a session whose transaction idles longer (a request stuck between statements). */
  idleInTransactionMs: number;
  /** SQLite: how long a statement waits for another connection's lock before failing with SQLITE_BUSY. */
  sqliteBusyMs: number;
}

/** The defaults of config/database.ts, for callers that open a database without a config (scripts, tests). */
export const DEFAULT_DATABASE_TIMEOUTS: DatabaseTimeouts = {
  connectMs: 5000,
  statementMs: 10_000,
  queryMs: 15_000,
  idleInTransactionMs: 60_000,
  sqliteBusyMs: 5000,
};

// Network failures on the way to PostgreSQL (Node's codes).
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);
// PostgreSQL SQLSTATEs of a server that is going away, full or cancelled a statement on a timeout: 57014
// (statement_timeout), 57P01-57P03 (shutdown, crash, starting up), 53300 (too many connections), 25P03
// (idle_in_transaction_session_timeout). Class 08 (connection exceptions) is matched by its prefix.
const UNAVAILABLE_SQLSTATES = new Set(['57014', '57P01', '57P02', '57P03', '53300', '25P03']);
// node-postgres raises these as plain errors, without a code: its connect and query timeouts, a connection
// closed under it, and a client used after such a failure.
const PG_CLIENT_FAILURE =
  /^(Query read timeout|Connection terminated|timeout exceeded when trying to connect|timeout expired|Client has encountered a connection error|Client was closed)/;

/**
 * True when an error means the database cannot be reached or did not answer in time: PostgreSQL down, frozen,
 * restarting or out of connections, or SQLite still locked by another connection after its busy timeout
 * (SQLITE_BUSY, SQLITE_LOCKED). The api answers these with 503 (a passing outage, not a bug).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (
    let e = error, depth = 0;
    e && typeof e === 'object' && depth < 4;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const { code, errcode, message } = e as { code?: unknown; errcode?: unknown; message?: unknown };
    if (typeof errcode === 'number' && ((errcode & 0xff) === 5 || (errcode & 0xff) === 6)) return true;
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || /^08/.test(code)))
      return true;
    if (typeof message === 'string' && PG_CLIENT_FAILURE.test(message)) return true;
    // A connection to "localhost" tries each address: Node reports the refusals together (AggregateError).
    if (e instanceof AggregateError && e.errors.some((inner) => isDatabaseUnavailable(inner))) return true;
  }
  return false;
}
