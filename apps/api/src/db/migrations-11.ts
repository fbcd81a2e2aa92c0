import type { Migration } from './migrations.ts';

/** Migrations 11 onwards, appended to the list in migrations.ts (same conventions: portable SQL or split). */
export const migrationsFrom11: Migration[] = [
  {
    version: 11,
    name: 'last server deletion, the Extra Server Slot description',
    // users.server_deleted_*: the user's last deleted server (name, when, who: owner, admin or expiry), written in
    // the transaction that deletes it, so the dashboard can tell an owner who was away what happened.
    // The seeded Extra Server Slot said 'One more server slot' while each account owns one server at most; an
    // operator's own wording is left alone.
    sql: `
    ALTER TABLE users ADD COLUMN server_deleted_at BIGINT;
    ALTER TABLE users ADD COLUMN server_deleted_name TEXT;
    ALTER TABLE users ADD COLUMN server_deleted_by TEXT CHECK (server_deleted_by IN ('owner', 'admin', 'expiry'));
    UPDATE shop_items SET description = 'A slot to create your server from. Each account can own one server, and deleting it gives its slot back, so this is for an account that has neither a server nor a free slot.'
      WHERE id = 'extra_slot' AND description = 'One more server slot for your account.';
  `,
  },

  {
    version: 12,
    name: 'servers count what their activity entries store in the platform database',
    // activity_bytes: the bytes of the activity entries that writes to the server added (configuration saves,
    // backups, world and player writes), kept in the transaction of each entry. They live in the platform's
    // database, not on the tenant's disk, and count toward the owner's storage limit (storage-quota.ts).
    sql: `
    ALTER TABLE servers ADD COLUMN activity_bytes BIGINT NOT NULL DEFAULT 0;
  `,
  },

  {
    version: 13,
    name: 'limits shared by api replicas',
    // Used only on PostgreSQL, where several replicas share the database (ADR 0038); SQLite keeps its counters in
    // memory and leaves these empty.
    // rate_limit_hits: one fixed-window counter per limiter, subject (hashed) and window (http/rate-limits.ts);
    // expires_at lets the scheduler's leader sweep the windows that are over.
    // live_sockets: each open WebSocket of each replica, refreshed by the replica's heartbeat (seen_at), so a user's
    // sockets are counted across replicas and those of a dead replica stop counting (ws/live-sockets.ts).
    sql: `
    CREATE TABLE rate_limit_hits (
      counter_key TEXT NOT NULL,
      window_start BIGINT NOT NULL,
      hits INTEGER NOT NULL,
      expires_at BIGINT NOT NULL,
      PRIMARY KEY (counter_key, window_start)
    );
    CREATE INDEX rate_limit_hits_expires ON rate_limit_hits (expires_at);
    CREATE TABLE live_sockets (
      id TEXT PRIMARY KEY,
      replica_id TEXT NOT NULL,
      user_id TEXT NOT NULL,
      seen_at BIGINT NOT NULL
    );
    CREATE INDEX live_sockets_user ON live_sockets (user_id, seen_at);
    CREATE INDEX live_sockets_replica ON live_sockets (replica_id);
  `,
  },

  {
    version: 14,
    name: 'servers record their live status and control address for a gateway run apart',
    // Written by the panel's runtime on each status change (servers/registry.ts); read by a gateway running as its
    // own process (`npm run gateway`, ADR 0039), which has no runtime of its own. live_status: ONLINE, STARTING, ...;
    // control_url: the engine's control API while it is ONLINE (http://host:port), else NULL.
    sql: `
    ALTER TABLE servers ADD COLUMN live_status TEXT NOT NULL DEFAULT 'OFFLINE';
    ALTER TABLE servers ADD COLUMN control_url TEXT;
  `,
  },

  {
    version: 15,
    name: 'servers keep the storage figure their engine last reported',
    // data_bytes: what the server's files take (its engine's GET /usage, docs/engine-files-api.md), recorded at each
    // measure (a write, a backup action, the scheduler's pass over running engines). The scheduler counts an offline
    // server by it instead of starting a files-only engine to ask (ADR 0041). NULL: never measured yet.
    sql: `
    ALTER TABLE servers ADD COLUMN data_bytes BIGINT;
  `,
  },

  {
    version: 16,
    name: 'servers hold a power lock across replicas, their maintenance pod use and their game address',
    // Written by the kubernetes runtime driver only (ADR 0043); the local driver leaves them NULL.
    // power_lock_by / power_lock_until: the lease of the power action under way (runtime/kubernetes/lease.ts), taken
    // with one conditional UPDATE by any replica, renewed while held, free once released or past power_lock_until;
    // a released lease keeps power_lock_until = the time it was released, so a late watch event is not a crash.
    // files_used_at: the last file call of any replica through the server's maintenance pod (the leader deletes the
    // pod once it is idle). game_address: host:port where players reach the server while it is ONLINE (Agones' node
    // address and allocated port), for a gateway that runs apart; NULL: the api's public address and game_port.
    sql: `
    ALTER TABLE servers ADD COLUMN power_lock_by TEXT;
    ALTER TABLE servers ADD COLUMN power_lock_until BIGINT;
    ALTER TABLE servers ADD COLUMN files_used_at BIGINT;
    ALTER TABLE servers ADD COLUMN game_address TEXT;
  `,
  },
];
