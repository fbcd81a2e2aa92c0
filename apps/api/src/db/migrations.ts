/** One schema change. SQL is portable between SQLite and PostgreSQL unless split by dialect. */
export interface Migration {
  version: number;
  name: string;
  sql: string | { sqlite: string; postgres: string };
}

import { migrationsFrom11 } from './migrations-11.ts';
import { migrationsFrom17 } from './migrations-17.ts';
import { migrationsFrom18 } from './migrations-18.ts';
import { migrationsFrom19 } from './migrations-19.ts';
import { migrationsFrom20 } from './migrations-20.ts';
import { migrationsFrom22 } from './migrations-22.ts';

// Times are epoch milliseconds (BIGINT); booleans are INTEGER 0/1 on both engines.
export const migrations: Migration[] = [
  {
    version: 1,
    name: 'users, refresh tokens and settings',
    sql: `
      CREATE TABLE users (
        id TEXT PRIMARY KEY,
        username TEXT NOT NULL,
        discriminator TEXT NOT NULL DEFAULT '0',
        avatar TEXT,
        email TEXT,
        grow_id TEXT,
        grow_id_key TEXT UNIQUE,
        account_type TEXT NOT NULL DEFAULT 'Free',
        registered_at BIGINT,
        created_at BIGINT NOT NULL,
        last_login_at BIGINT,
        available_slot INTEGER NOT NULL DEFAULT 0,
        credit INTEGER NOT NULL DEFAULT 0,
        storage_limit_mb INTEGER NOT NULL DEFAULT 256,
        is_admin INTEGER NOT NULL DEFAULT 0,
        is_super_admin INTEGER NOT NULL DEFAULT 0,
        admin_permissions TEXT NOT NULL DEFAULT '[]',
        is_banned INTEGER NOT NULL DEFAULT 0,
        ban_reason TEXT,
        banned_by TEXT,
        banned_at BIGINT,
        ban_expires BIGINT
      );
      CREATE TABLE refresh_tokens (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        family_id TEXT NOT NULL,
        token_hash TEXT NOT NULL UNIQUE,
        created_at BIGINT NOT NULL,
        expires_at BIGINT NOT NULL,
        used_at BIGINT,
        revoked_at BIGINT
      );
      CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id);
      CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );
    `,
  },
];

migrations.push({
  version: 2,
  name: 'hosted servers, server time, storage, banned names, activity log',
  sql: `
    ALTER TABLE users ADD COLUMN server_expires_at BIGINT;
    ALTER TABLE users ADD COLUMN server_permanent INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE users ADD COLUMN pending_server_ms BIGINT NOT NULL DEFAULT 0;
    ALTER TABLE users ADD COLUMN storage_used_bytes BIGINT NOT NULL DEFAULT 0;
    CREATE TABLE servers (
      id TEXT PRIMARY KEY,
      owner_id TEXT NOT NULL UNIQUE REFERENCES users(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      name_key TEXT NOT NULL UNIQUE,
      game_port INTEGER NOT NULL UNIQUE,
      control_secret TEXT NOT NULL,
      desired_state TEXT NOT NULL DEFAULT 'stopped',
      created_at BIGINT NOT NULL,
      last_crash_at BIGINT
    );
    CREATE TABLE banned_server_names (
      name_key TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      reason TEXT,
      created_at BIGINT NOT NULL
    );
    CREATE TABLE activity_logs (
      id TEXT PRIMARY KEY,
      timestamp BIGINT NOT NULL,
      action TEXT NOT NULL,
      actor_type TEXT NOT NULL,
      actor_name TEXT NOT NULL,
      details TEXT NOT NULL
    );
    CREATE INDEX activity_logs_timestamp ON activity_logs (timestamp);
  `,
});

migrations.push({
  version: 3,
  name: 'collaborators',
  sql: `
    CREATE TABLE collaborators (
      server_id TEXT NOT NULL REFERENCES servers(id) ON DELETE CASCADE,
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      permissions TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      PRIMARY KEY (server_id, user_id)
    );
    CREATE INDEX collaborators_user ON collaborators (user_id);
  `,
});

migrations.push({
  version: 4,
  name: 'a user collaborates on at most one server, and never on one while owning one',
  // Races before this version could leave both; the earliest invitation is the one the api honoured
  // (collaboratorsRepo.serverOf), and an owner keeps their own server.
  sql: `
    DELETE FROM collaborators WHERE user_id IN (SELECT owner_id FROM servers);
    DELETE FROM collaborators WHERE EXISTS (
      SELECT 1 FROM collaborators e WHERE e.user_id = collaborators.user_id
        AND (e.created_at < collaborators.created_at
          OR (e.created_at = collaborators.created_at AND e.server_id < collaborators.server_id))
    );
    DROP INDEX collaborators_user;
    CREATE UNIQUE INDEX collaborators_user_key ON collaborators (user_id);
  `,
});

migrations.push({
  version: 5,
  name: 'refresh grace window, idempotency keys',
  // successor_sealed: the rotated token, encrypted, kept only for the refresh grace window (auth.service.ts).
  // idempotency_keys: the answer to a mutating request, replayed for a retry with the same key (http/idempotency.ts).
  sql: `
    ALTER TABLE refresh_tokens ADD COLUMN successor_sealed TEXT;
    CREATE TABLE idempotency_keys (
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      idem_key TEXT NOT NULL,
      fingerprint TEXT NOT NULL,
      status INTEGER,
      content_type TEXT,
      body TEXT,
      created_at BIGINT NOT NULL,
      PRIMARY KEY (user_id, idem_key)
    );
    CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
  `,
});

migrations.push({
  version: 6,
  name: 'backups',
  // One backup per account: the primary key is the invariant, so two creates racing (on any number of
  // api processes) leave one row and one refusal. The file lives at <data dir>/backups/<owner_id>/backup.db.
  sql: `
    CREATE TABLE backups (
      owner_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
      created_at BIGINT NOT NULL,
      bytes BIGINT NOT NULL,
      sha256 TEXT NOT NULL
    );
  `,
});

/** Tables of migration 7, the same on both engines (ids are random UUIDs, text). */
const economyTables = `
  CREATE TABLE redeem_codes (
    code_key TEXT PRIMARY KEY,
    code TEXT NOT NULL,
    type TEXT NOT NULL CHECK (type IN ('Slot', 'ServerTime')),
    amount INTEGER NOT NULL CHECK (amount >= 1),
    stock INTEGER NOT NULL CHECK (stock >= 1),
    claimed INTEGER NOT NULL DEFAULT 0 CHECK (claimed >= 0 AND claimed <= stock),
    is_public INTEGER NOT NULL DEFAULT 0,
    expires_at BIGINT,
    created_by TEXT NOT NULL,
    created_at BIGINT NOT NULL
  );
  CREATE TABLE redeem_claims (
    code_key TEXT NOT NULL,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    code TEXT NOT NULL,
    reward TEXT NOT NULL,
    claimed_at BIGINT NOT NULL,
    PRIMARY KEY (code_key, user_id)
  );
  CREATE INDEX redeem_claims_user ON redeem_claims (user_id, claimed_at);
  CREATE TABLE shop_items (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    description TEXT NOT NULL,
    cost INTEGER NOT NULL CHECK (cost >= 0),
    type TEXT NOT NULL CHECK (type IN ('one_time', 'quantifiable')),
    effect TEXT NOT NULL CHECK (effect IN ('server_days', 'slots', 'storage_mb')),
    effect_amount INTEGER NOT NULL CHECK (effect_amount >= 1),
    sort_order INTEGER NOT NULL DEFAULT 0,
    active INTEGER NOT NULL DEFAULT 1
  );
  INSERT INTO shop_items (id, name, description, cost, type, effect, effect_amount, sort_order) VALUES
    ('server_time_7d', '7 Days Server Time', 'Adds 7 days to your server time.', 100, 'quantifiable', 'server_days', 7, 10),
    ('server_time_30d', '30 Days Server Time', 'Adds 30 days to your server time.', 350, 'quantifiable', 'server_days', 30, 20),
    ('extra_slot', 'Extra Server Slot', 'One more server slot for your account.', 500, 'quantifiable', 'slots', 1, 30),
    ('storage_upgrade_256', 'Storage Upgrade +256 MB', 'Raises your storage limit by 256 MB, for good.', 200, 'one_time', 'storage_mb', 256, 40),
    ('storage_upgrade_1024', 'Storage Upgrade +1 GB', 'Raises your storage limit by 1024 MB, for good.', 600, 'one_time', 'storage_mb', 1024, 50);
  CREATE TABLE purchases (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    item_id TEXT NOT NULL REFERENCES shop_items(id),
    one_time INTEGER NOT NULL,
    quantity INTEGER NOT NULL CHECK (quantity >= 1),
    unit_cost INTEGER NOT NULL CHECK (unit_cost >= 0),
    created_at BIGINT NOT NULL
  );
  CREATE UNIQUE INDEX purchases_one_time ON purchases (user_id, item_id) WHERE one_time = 1;
  CREATE INDEX purchases_user ON purchases (user_id, created_at);
  CREATE TABLE credit_ledger (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    delta INTEGER NOT NULL,
    balance INTEGER NOT NULL CHECK (balance >= 0),
    reason TEXT NOT NULL,
    external_ref TEXT UNIQUE,
    actor TEXT NOT NULL,
    created_at BIGINT NOT NULL
  );
  CREATE INDEX credit_ledger_user ON credit_ledger (user_id, created_at);
  CREATE TABLE feedback (
    id TEXT PRIMARY KEY,
    user_id TEXT REFERENCES users(id) ON DELETE SET NULL,
    type TEXT NOT NULL CHECK (type IN ('Suggestion', 'Bug Report', 'General Feedback')),
    message TEXT NOT NULL,
    submitted_by_username TEXT NOT NULL,
    submitted_by_grow_id TEXT,
    status TEXT NOT NULL DEFAULT 'New' CHECK (status IN ('New', 'In Progress', 'Resolved', 'Archived')),
    created_at BIGINT NOT NULL
  );
  CREATE INDEX feedback_created ON feedback (created_at);
`;

migrations.push({
  version: 7,
  name: 'redeem codes, shop, credits, feedback',
  // Invariants live here, not in the services:
  // - redeem_codes.claimed never exceeds stock (CHECK), and one claim per user and code (primary key);
  //   codes match without regard to case: code_key is the trimmed, upper-cased code.
  // - a one_time shop item is bought once per user (partial unique index on purchases).
  // - credit never goes below zero (CHECK on PostgreSQL; a trigger on SQLite, whose ALTER TABLE cannot add
  //   a CHECK); credit_ledger.external_ref is unique, so a payment event is credited once however often
  //   it is delivered.
  sql: {
    sqlite: `${economyTables}
      CREATE TRIGGER users_credit_nonnegative BEFORE UPDATE OF credit ON users
        WHEN NEW.credit < 0 BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: users_credit_nonnegative'); END;
    `,
    postgres: `${economyTables}
      ALTER TABLE users ADD CONSTRAINT users_credit_nonnegative CHECK (credit >= 0);
    `,
  },
});

migrations.push({
  version: 8,
  name: 'admin panel: ban logs, Paid plans, name-ban actors, search indexes',
  // ban_logs: one row per ban (the Ban Logs tab); unbanned_at/unbanned_by record how it ended.
  // users.paid_until: a Paid plan's end (null: Free, or Paid without end); the scheduler returns it to Free.
  // The lower-cased search columns keep the admin lists' searches on indexes at 100,000 users.
  sql: `
    CREATE TABLE ban_logs (
      id TEXT PRIMARY KEY,
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      discord_username TEXT NOT NULL,
      grow_id TEXT,
      banned_by TEXT NOT NULL,
      reason TEXT NOT NULL,
      banned_at BIGINT NOT NULL,
      expires BIGINT,
      unbanned_at BIGINT,
      unbanned_by TEXT
    );
    CREATE INDEX ban_logs_banned_at ON ban_logs (banned_at);
    CREATE INDEX ban_logs_user ON ban_logs (user_id);
    ALTER TABLE users ADD COLUMN paid_until BIGINT;
    ALTER TABLE banned_server_names ADD COLUMN banned_by TEXT;
    CREATE INDEX users_username ON users (username);
    CREATE INDEX users_created ON users (created_at);
    CREATE INDEX redeem_codes_created ON redeem_codes (created_at);
  `,
});

migrations.push({
  version: 9,
  name: 'storage analytics index',
  // Every column the admin's storage analytics reads, so SQLite answers from the index alone (bench/admin.ts:
  // p99 from about 240 ms to about 44 ms at 100,000 users on both databases).
  sql: `
    CREATE INDEX users_storage ON users (storage_used_bytes, storage_limit_mb, account_type, paid_until, grow_id);
  `,
});

/** Migration 10's search text of the users row `u` (SQLite): see the migration. */
const sqliteSearchText = (u: string) => `lower(${u}.username) || char(10) || coalesce(${u}.grow_id_key, '') || char(10)
  || lower(${u}.id) || char(10) || coalesce((SELECT name_key FROM servers WHERE owner_id = ${u}.id), '')`;

migrations.push({
  version: 10,
  name: 'users search text',
  // The admin users search covers Discord username, GrowID, Discord ID and server name. Four LIKE '%x%' over
  // users joined to servers, and again for the count, read every row of both tables (bench/admin.ts: p99
  // about 100 ms on SQLite, 130-280 ms on PostgreSQL at 100,000 users). users.search_text holds the four,
  // lower-cased and one per line, so the search is one LIKE over one column without the join; the triggers
  // keep it current whichever code path changes a user or a server (create, rename, delete, GrowID later).
  // SQLite scans the narrow (created_at, search_text) index instead of the table, for the page (newest
  // first) and the count alike. PostgreSQL finds the rows in a pg_trgm GIN index (a trusted extension, so
  // the database's owner may create it); search terms under three characters fall back to a scan. The index
  // keeps a short pending list (256 kB, not 4 MB): every non-HOT update of users (the storage pass writes
  // 20,000) queues entries there, and a long list made the planner count 11,000 matches by a 30 ms table scan
  // instead of a 3 ms index scan; fastupdate off would have made those 20,000 updates 3 s instead of 0.4 s.
  sql: {
    sqlite: `
      ALTER TABLE users ADD COLUMN search_text TEXT NOT NULL DEFAULT '';
      UPDATE users SET search_text = ${sqliteSearchText('users')};
      CREATE INDEX users_search ON users (created_at, search_text);
      CREATE TRIGGER users_search_insert AFTER INSERT ON users BEGIN
        UPDATE users SET search_text = ${sqliteSearchText('users')} WHERE id = NEW.id;
      END;
      CREATE TRIGGER users_search_update AFTER UPDATE OF id, username, grow_id_key ON users BEGIN
        UPDATE users SET search_text = ${sqliteSearchText('users')} WHERE id = NEW.id;
      END;
      CREATE TRIGGER servers_search_insert AFTER INSERT ON servers BEGIN
        UPDATE users SET search_text = ${sqliteSearchText('users')} WHERE id = NEW.owner_id;
      END;
      CREATE TRIGGER servers_search_update AFTER UPDATE OF name_key, owner_id ON servers BEGIN
        UPDATE users SET search_text = ${sqliteSearchText('users')} WHERE id IN (OLD.owner_id, NEW.owner_id);
      END;
      CREATE TRIGGER servers_search_delete AFTER DELETE ON servers BEGIN
        UPDATE users SET search_text = ${sqliteSearchText('users')} WHERE id = OLD.owner_id;
      END;
    `,
    postgres: `
      CREATE EXTENSION IF NOT EXISTS pg_trgm;
      ALTER TABLE users ADD COLUMN search_text TEXT NOT NULL DEFAULT '';
      CREATE FUNCTION canopy_user_search_text(p_id TEXT, p_username TEXT, p_grow_id_key TEXT) RETURNS TEXT
        LANGUAGE sql STABLE AS $$
          SELECT lower(p_username) || E'\\n' || coalesce(p_grow_id_key, '') || E'\\n' || lower(p_id) || E'\\n'
            || coalesce((SELECT name_key FROM servers WHERE owner_id = p_id), '')
        $$;
      UPDATE users SET search_text = canopy_user_search_text(id, username, grow_id_key);
      CREATE FUNCTION canopy_users_search_text() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          NEW.search_text := canopy_user_search_text(NEW.id, NEW.username, NEW.grow_id_key);
          RETURN NEW;
        END
      $$;
      CREATE TRIGGER users_search_text BEFORE INSERT OR UPDATE OF id, username, grow_id_key ON users
        FOR EACH ROW EXECUTE FUNCTION canopy_users_search_text();
      CREATE FUNCTION canopy_servers_search_text() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF TG_OP <> 'INSERT' THEN
            UPDATE users SET search_text = canopy_user_search_text(id, username, grow_id_key) WHERE id = OLD.owner_id;
          END IF;
          IF TG_OP <> 'DELETE' THEN
            UPDATE users SET search_text = canopy_user_search_text(id, username, grow_id_key) WHERE id = NEW.owner_id;
          END IF;
          RETURN NULL;
        END
      $$;
      CREATE TRIGGER servers_search_text AFTER INSERT OR UPDATE OF name_key, owner_id OR DELETE ON servers
        FOR EACH ROW EXECUTE FUNCTION canopy_servers_search_text();
      CREATE INDEX users_search ON users USING gin (search_text gin_trgm_ops) WITH (gin_pending_list_limit = 256);
    `,
  },
});

// 11 onwards (issues 21 and 22: hostile tenants, several replicas, the gateway apart) live in their own file.
migrations.push(...migrationsFrom11);
migrations.push(...migrationsFrom17);
migrations.push(...migrationsFrom18);
migrations.push(...migrationsFrom19);
migrations.push(...migrationsFrom20);
migrations.push(...migrationsFrom22);
