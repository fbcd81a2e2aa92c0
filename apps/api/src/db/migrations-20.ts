import type { Migration } from './migrations.ts';

/** Migration 20 (issue 24, schedules), appended to the list in migrations.ts. */
export const migrationsFrom20: Migration[] = [
  {
    version: 20,
    name: 'server schedules',
    // One row per schedule of a server (ADR 0052). slot (0-9) unique per server bounds a server to 10 schedules in
    // the database itself: two creates racing on two replicas cannot make an eleventh. at_minute is the wall-clock
    // minute after midnight in time_zone, weekday null for every day. next_run_at is the instant of the next run
    // (NULL while disabled); a run claims its row by moving it with a conditional UPDATE, so it runs once.
    sql: `
    CREATE TABLE schedules (
      id TEXT PRIMARY KEY,
      server_id TEXT NOT NULL REFERENCES servers(id) ON DELETE CASCADE,
      slot INTEGER NOT NULL CHECK (slot >= 0 AND slot < 10),
      action TEXT NOT NULL CHECK (action IN ('restart', 'broadcast', 'backup')),
      message TEXT CHECK (message IS NULL OR length(message) <= 200),
      at_minute INTEGER NOT NULL CHECK (at_minute >= 0 AND at_minute < 1440),
      weekday INTEGER CHECK (weekday IS NULL OR (weekday >= 0 AND weekday <= 6)),
      time_zone TEXT NOT NULL,
      enabled INTEGER NOT NULL DEFAULT 1,
      next_run_at BIGINT,
      last_run_at BIGINT,
      last_outcome TEXT,
      created_at BIGINT NOT NULL,
      CHECK (action <> 'broadcast' OR message IS NOT NULL),
      UNIQUE (server_id, slot)
    );
    CREATE INDEX schedules_due ON schedules (next_run_at);
  `,
  },
];
