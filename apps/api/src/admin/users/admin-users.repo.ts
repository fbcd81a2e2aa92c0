import type { Db } from '../../db/db.ts';
import type { UserRow } from '../../users/users.repo.ts';
import { containsPattern } from '../paging.ts';

/** A user as the admin Users tab reads them: the stored row plus their server's name. */
export type AdminUserSqlRow = UserRow & { server_name: string | null };

const columns = `u.id, u.username, u.discriminator, u.avatar, u.email, u.grow_id, u.account_type, u.registered_at,
  u.available_slot, u.credit, u.storage_limit_mb, u.is_admin, u.is_super_admin, u.admin_permissions, u.is_banned,
  u.ban_reason, u.banned_by, u.banned_at, u.ban_expires, u.server_expires_at, u.server_permanent, u.pending_server_ms,
  u.storage_used_bytes, u.paid_until, s.name AS server_name`;

// Discord username, GrowID, Discord ID and server name (admin document, section 2), compared lower-cased, all
// four in users.search_text (migration 10: kept current by triggers, one line each), so the search is one LIKE
// over one column, without the join: p99 from about 100-280 ms to under 50 ms at 100,000 users (bench/admin.ts).
// SQLite answers the page and the count from the narrow (created_at, search_text) index rather than the
// table; its planner would walk users_created and read every row, hence INDEXED BY. The page's ties on
// created_at come in that index's order, fixed, so pages stay stable. PostgreSQL reads the matches from the
// pg_trgm index on search_text.
const searchWhere = `WHERE u.search_text LIKE ? ESCAPE '\\'`;

/** The admin Users list and the manage dialog's read: counted and paged in SQL. */
export const adminUsersRepo = {
  async page(db: Db, search: string | undefined, limit: number, offset: number) {
    // The four fields are one a line in search_text: a term holding a line break would match across two of
    // them, and no field of its own holds one.
    if (search?.includes('\n')) return { rows: [], total: 0 };
    const where = search ? searchWhere : '';
    const params = search ? [containsPattern(search)] : [];
    const users = search && db.dialect === 'sqlite' ? 'users u INDEXED BY users_search' : 'users u';
    const from = `FROM ${users} LEFT JOIN servers s ON s.owner_id = u.id`;
    // Ties on created_at need a fixed order for stable pages. SQLite walks a created_at index, whose order for
    // ties is fixed already; naming id there too makes it sort every row (60 ms at 100,000 users instead of
    // 0.1). PostgreSQL sorts the ties incrementally on the index.
    const order = db.dialect === 'postgres' ? 'u.created_at DESC, u.id DESC' : 'u.created_at DESC';
    const rows = await db.all<AdminUserSqlRow>(
      `SELECT ${columns} ${from} ${where} ORDER BY ${order} LIMIT ? OFFSET ?`,
      [...params, limit, offset],
    );
    // A page that is not full tells the total: a precise search (one GrowID, one server) needs no second pass.
    if (rows.length < limit && (rows.length > 0 || offset === 0)) return { rows, total: offset + rows.length };
    // The join cannot add or drop a user (one server per owner): count the users alone.
    const count = await db.get<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${users} ${where}`, params);
    return { rows, total: Number(count?.n ?? 0) };
  },

  findById(db: Db, id: string) {
    return db.get<AdminUserSqlRow>(
      `SELECT ${columns} FROM users u LEFT JOIN servers s ON s.owner_id = u.id WHERE u.id = ?`,
      [id],
    );
  },
};
