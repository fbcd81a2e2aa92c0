import { z } from 'zod';
import { DEFAULT_DATABASE_TIMEOUTS as D, type DatabaseTimeouts } from '../db/db.ts';

// How long the api waits on its database (CANOPY_DB_*, ADR 0029): what config.ts reads for it and the check across
// those variables.

const ms = (min: number, fallback: number) => z.coerce.number().int().min(min).max(600_000).default(fallback);

/** The variables, merged into config.ts's environment schema. */
export const databaseEnv = {
  CANOPY_DB_CONNECT_TIMEOUT_MS: ms(100, D.connectMs),
  CANOPY_DB_STATEMENT_TIMEOUT_MS: ms(100, D.statementMs),
  CANOPY_DB_QUERY_TIMEOUT_MS: ms(100, D.queryMs),
  CANOPY_DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: ms(1000, D.idleInTransactionMs),
  CANOPY_SQLITE_BUSY_TIMEOUT_MS: ms(0, D.sqliteBusyMs),
};

type DatabaseEnv = { [K in keyof typeof databaseEnv]: number };

/** What is wrong across the variables (each alone is checked by its schema). */
export function databaseIssues(env: DatabaseEnv): { path: string[]; message: string }[] {
  // The server's cancel must come first: it keeps the connection, the client's timeout drops it.
  if (env.CANOPY_DB_QUERY_TIMEOUT_MS > env.CANOPY_DB_STATEMENT_TIMEOUT_MS) return [];
  return [
    {
      path: ['CANOPY_DB_QUERY_TIMEOUT_MS'],
      message: `must be longer than CANOPY_DB_STATEMENT_TIMEOUT_MS (${env.CANOPY_DB_STATEMENT_TIMEOUT_MS})`,
    },
  ];
}

/** The timeouts the database is opened with. */
export const databaseTimeouts = (env: DatabaseEnv): DatabaseTimeouts => ({
  connectMs: env.CANOPY_DB_CONNECT_TIMEOUT_MS,
  statementMs: env.CANOPY_DB_STATEMENT_TIMEOUT_MS,
  queryMs: env.CANOPY_DB_QUERY_TIMEOUT_MS,
  idleInTransactionMs: env.CANOPY_DB_IDLE_IN_TRANSACTION_TIMEOUT_MS,
  sqliteBusyMs: env.CANOPY_SQLITE_BUSY_TIMEOUT_MS,
});
