import pg from 'pg';
import {
  type DatabaseTimeouts,
  type Db,
  DEFAULT_DATABASE_TIMEOUTS,
  isDatabaseUnavailable,
  type SqlValue,
} from './db.ts';

/** `?` placeholders become `$1, $2, …` (our SQL never has a literal question mark). */
export function toPgPlaceholders(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

const toPg = (params: readonly SqlValue[]) => params.map((p) => (typeof p === 'boolean' ? (p ? 1 : 0) : p));

// BIGINT (epoch milliseconds) and COUNT(*) come back as numbers, as they do from SQLite.
const types = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') =>
    oid === 20 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as 'text'),
};

type Queryable = pg.Pool | pg.PoolClient;

function handle(q: Queryable, transaction: Db['transaction']): Db {
  return {
    dialect: 'postgres',
    async all<T>(sql: string, params: readonly SqlValue[] = []) {
      return (await q.query(toPgPlaceholders(sql), toPg(params))).rows as T[];
    },
    async get<T>(sql: string, params: readonly SqlValue[] = []) {
      return (await q.query(toPgPlaceholders(sql), toPg(params))).rows[0] as T | undefined;
    },
    async run(sql, params = []) {
      return { changes: (await q.query(toPgPlaceholders(sql), toPg(params))).rowCount ?? 0 };
    },
    transaction,
    close: async () => {},
  };
}

/** Connects a pool to PostgreSQL at the given URL, every call bounded by the timeouts. */
export function openPostgres(url: string, timeouts: DatabaseTimeouts = DEFAULT_DATABASE_TIMEOUTS): Db {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    types,
    // A database that is down or frozen fails the call within these (the api answers 503) instead of holding
    // the request for as long as the outage lasts: a new connection's handshake and the wait for a free one.
    connectionTimeoutMillis: timeouts.connectMs,
    // A slow statement is cancelled by the server, which keeps the connection; the client's own timeout is the
    // longer one and catches a server that does not answer at all (the connection is then dropped).
    statement_timeout: timeouts.statementMs,
    query_timeout: timeouts.queryMs,
    idle_in_transaction_session_timeout: timeouts.idleInTransactionMs,
  });
  // An idle connection dropped by the server (restart, failover) is replaced on next use; not fatal.
  pool.on('error', () => {});
  const transaction: Db['transaction'] = async (fn) => {
    const client = await pool.connect();
    let broken = false;
    try {
      await client.query('BEGIN');
      const tx = handle(client, (inner) => inner(tx));
      const result = await fn(tx);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      // A failed ROLLBACK must not hide the error that matters; the connection is then discarded
      // rather than handed to the next request in an unknown transaction state. A connection that
      // timed out or broke is discarded at once: a ROLLBACK on it would only wait out another timeout
      // (the server rolls the transaction back when the connection closes).
      if (isDatabaseUnavailable(error)) broken = true;
      else
        await client.query('ROLLBACK').catch(() => {
          broken = true;
        });
      throw error;
    } finally {
      client.release(broken);
    }
  };
  return { ...handle(pool, transaction), close: () => pool.end() };
}
