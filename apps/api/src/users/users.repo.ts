import type { DiscordUser, ServerDeletedBy } from '@canopy/contract';
import type { Db } from '../db/db.ts';

export interface UserRow {
  id: string;
  username: string;
  discriminator: string;
  avatar: string | null;
  email: string | null;
  grow_id: string | null;
  account_type: 'Free' | 'Paid';
  registered_at: number | null;
  available_slot: number;
  credit: number;
  storage_limit_mb: number;
  is_admin: number;
  is_super_admin: number;
  admin_permissions: string;
  is_banned: number;
  ban_reason: string | null;
  banned_by: string | null;
  banned_at: number | null;
  ban_expires: number | null;
  server_expires_at: number | null;
  server_permanent: number;
  pending_server_ms: number;
  storage_used_bytes: number;
  /** A Paid plan's end (null: Free, or Paid with no end). */
  paid_until: number | null;
  /** The user's last deleted server (migration 11): when, its name, and who deleted it. */
  server_deleted_at?: number | null;
  server_deleted_name?: string | null;
  server_deleted_by?: ServerDeletedBy | null;
}

/** The columns of a UserRow, for queries elsewhere that read a user row with something more (the session lookup). */
export const userColumns = `id, username, discriminator, avatar, email, grow_id, account_type, registered_at, available_slot,
  credit, storage_limit_mb, is_admin, is_super_admin, admin_permissions, is_banned, ban_reason, banned_by, banned_at,
  ban_expires, server_expires_at, server_permanent, pending_server_ms, storage_used_bytes, paid_until, server_deleted_at,
  server_deleted_name, server_deleted_by`;

/** What a new account starts with (configuration). */
export interface StartingGrant {
  slots: number;
  serverMs: number;
}

/** Platform users, keyed by their Discord id. */
export const usersRepo = {
  findById(db: Db, id: string) {
    return db.get<UserRow>(`SELECT ${userColumns} FROM users WHERE id = ?`, [id]);
  },

  /** Creates the user on first sign-in, or refreshes what Discord says about them. */
  upsertFromDiscord(db: Db, u: DiscordUser, now: number, grant: StartingGrant) {
    return db.run(
      `INSERT INTO users (id, username, discriminator, avatar, email, created_at, last_login_at, available_slot,
         pending_server_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET username = excluded.username, discriminator = excluded.discriminator,
         avatar = excluded.avatar, email = excluded.email, last_login_at = excluded.last_login_at`,
      [u.id, u.username, u.discriminator, u.avatar ?? null, u.email ?? null, now, now, grant.slots, grant.serverMs],
    );
  },

  makeSuperAdmin(db: Db, id: string) {
    return db.run('UPDATE users SET is_admin = 1, is_super_admin = 1 WHERE id = ?', [id]);
  },

  /** Sets the GrowID once; false when the user already has one (it never changes). */
  async setGrowId(db: Db, id: string, growId: string, now: number): Promise<boolean> {
    const r = await db.run(
      'UPDATE users SET grow_id = ?, grow_id_key = ?, registered_at = ? WHERE id = ? AND grow_id IS NULL',
      [growId, growId.toLowerCase(), now, id],
    );
    return r.changes === 1;
  },

  async growIdTaken(db: Db, growId: string): Promise<boolean> {
    return (await db.get('SELECT id FROM users WHERE grow_id_key = ?', [growId.toLowerCase()])) !== undefined;
  },

  /** Takes one server slot; false when none is left. */
  async takeSlot(db: Db, id: string): Promise<boolean> {
    const r = await db.run('UPDATE users SET available_slot = available_slot - 1 WHERE id = ? AND available_slot > 0', [
      id,
    ]);
    return r.changes === 1;
  },

  returnSlot(db: Db, id: string) {
    return db.run('UPDATE users SET available_slot = available_slot + 1 WHERE id = ?', [id]);
  },

  /** Remembers the user's server as deleted (the dashboard's notice), in the transaction that deletes it. */
  noteServerDeleted(db: Db, id: string, deleted: { name: string; by: ServerDeletedBy }, now: number) {
    return db.run(
      'UPDATE users SET server_deleted_at = ?, server_deleted_name = ?, server_deleted_by = ? WHERE id = ?',
      [now, deleted.name, deleted.by, id],
    );
  },

  /** The starting server time begins to run with the first server, not at sign-up. */
  beginPendingServerTime(db: Db, id: string, now: number) {
    return db.run(
      `UPDATE users SET server_expires_at = ? + pending_server_ms, pending_server_ms = 0
       WHERE id = ? AND server_expires_at IS NULL AND pending_server_ms > 0`,
      [now, id],
    );
  },

  setStorageUsed(db: Db, id: string, bytes: number) {
    return db.run('UPDATE users SET storage_used_bytes = ? WHERE id = ?', [bytes, id]);
  },
};
