import type { Migration } from './migrations.ts';

/**
 * The tables of migration 18. The primary key leads with time, so a sampling pass appends, a rollup reads one range
 * and a prune deletes one range (on SQLite, WITHOUT ROWID, that range is the table itself); a chart reads a
 * server's rows by the second index.
 */
const samplesTables = (withoutRowid: string) => `
    CREATE TABLE server_samples (
      server_id TEXT NOT NULL REFERENCES servers(id) ON DELETE CASCADE,
      step_ms INTEGER NOT NULL CHECK (step_ms IN (60000, 900000, 3600000)),
      at BIGINT NOT NULL,
      samples INTEGER NOT NULL CHECK (samples >= 1),
      players INTEGER NOT NULL CHECK (players >= 0),
      cpu REAL CHECK (cpu >= 0),
      memory BIGINT CHECK (memory >= 0),
      PRIMARY KEY (step_ms, at, server_id)
    )${withoutRowid};
    CREATE INDEX server_samples_server ON server_samples (server_id, step_ms, at);
    CREATE TABLE platform_samples (
      step_ms INTEGER NOT NULL CHECK (step_ms IN (60000, 900000, 3600000)),
      at BIGINT NOT NULL,
      samples INTEGER NOT NULL CHECK (samples >= 1),
      servers_online INTEGER NOT NULL CHECK (servers_online >= 0),
      players_online INTEGER NOT NULL CHECK (players_online >= 0),
      storage_bytes BIGINT NOT NULL CHECK (storage_bytes >= 0),
      PRIMARY KEY (step_ms, at)
    );
    CREATE INDEX credit_ledger_payments ON credit_ledger (created_at) WHERE reason = 'payment';
`;

/** Migration 18 (issue 24, item 2): history samples for the charts, downsampled (ADR 0050). */
export const migrationsFrom18: Migration[] = [
  {
    version: 18,
    name: 'history samples of servers and of the platform',
    // server_samples: one row per server, resolution (step_ms: 1 minute, 15 minutes, 1 hour) and span start (at).
    // samples: the 1-minute samples the row stands for, so a coarser row averages CPU by weight; players and memory
    // are the span's peak. The scheduler rolls finer rows up and prunes each resolution past what its chart shows
    // (history/downsample.ts), so a server holds a bounded number of rows; deleting the server deletes them.
    // platform_samples: the same for the admin Dashboard's sampled gauges (servers and players online, storage).
    // credit_ledger_payments: credits sold over time are read from the ledger's payment rows by time.
    sql: {
      sqlite: samplesTables(' WITHOUT ROWID'),
      postgres: samplesTables(''),
    },
  },
];
