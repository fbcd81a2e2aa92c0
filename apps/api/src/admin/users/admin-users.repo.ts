import type { Db } from '../../db/db.ts';
import type { UserRow } from '../../users/users.repo.ts';
import { containsPattern } from '../paging.ts';

/** A user as the admin Users tab reads them: the stored row plus their server's name. */
export type AdminUserSqlRow = UserRow & { server_name: string | null };

const columns = `u.id, u.username, u.discriminator, u.avatar, u.email, u.grow_id, u.account_type, u.registered_at,
  u.available_slot, u.credit, u.storage_limit_mb, u.is_admin, u.is_super_admin, u.admin_permissions, u.is_banned,
  u.ban_reason, u.banned_by, u.banned_at, u.ban_expires, u.server_expires_at, u.server_permanent, u.pending_server_ms,
  u.storage_used_bytes, u.paid_until, s.name AS server_name`;

// Discord username, GrowID, Discord ID and server name (admin document, section 2), compared lower-cased:
// grow_id_key and name_key are the lower-cased unique columns.
const searchWhere = `WHERE (LOWER(u.username) LIKE ? ESCAPE '\\' OR u.grow_id_key LIKE ? ESCAPE '\\'
  OR u.id LIKE ? ESCAPE '\\' OR s.name_key LIKE ? ESCAPE '\\')`;

/** The admin Users list and the manage dialog's read: counted and paged in SQL. */
export const adminUsersRepo = {
  async page(db: Db, search: string | undefined, limit: number, offset: number) {
    const where = search ? searchWhere : '';
    const params = search ? Array(4).fill(containsPattern(search)) : [];
    const from = 'FROM users u LEFT JOIN servers s ON s.owner_id = u.id';
    // Ties on created_at need a fixed order for stable pages. SQLite walks the created_at index, whose ties are
    // in rowid order already; naming id there too makes it sort every row (60 ms at 100,000 users instead of
    // 0.1). PostgreSQL sorts the ties incrementally on the index.
    const order = db.dialect === 'postgres' ? 'u.created_at DESC, u.id DESC' : 'u.created_at DESC';
    const rows = await db.all<AdminUserSqlRow>(
      `SELECT ${columns} ${from} ${where} ORDER BY ${order} LIMIT ? OFFSET ?`,
      [...params, limit, offset],
    );
    // Without a search the join cannot add or drop a user (one server per owner): count the users alone.
    const count = search
      ? await db.get<{ n: number | string }>(`SELECT COUNT(*) AS n ${from} ${where}`, params)
      : await db.get<{ n: number | string }>('SELECT COUNT(*) AS n FROM users');
    return { rows, total: Number(count?.n ?? 0) };
  },

  findById(db: Db, id: string) {
    return db.get<AdminUserSqlRow>(
      `SELECT ${columns} FROM users u LEFT JOIN servers s ON s.owner_id = u.id WHERE u.id = ?`,
      [id],
    );
  },
};
