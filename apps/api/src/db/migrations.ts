/** One schema change. SQL is portable between SQLite and PostgreSQL unless split by dialect. */
export interface Migration {
  version: number;
  name: string;
  sql: string | { sqlite: string; postgres: string };
}

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
