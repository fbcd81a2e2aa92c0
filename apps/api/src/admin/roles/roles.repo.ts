import type { Db } from '../../db/db.ts';
import { storedPermissions } from '../../users/profile.ts';
import { containsPattern } from '../paging.ts';

interface AdminRow {
  id: string;
  username: string;
  grow_id: string | null;
  is_admin: number | string;
  is_super_admin: number | string;
  admin_permissions: string;
}

/** Administrators' roles and permission lists on the users table. */
export const rolesRepo = {
  /** One page of administrators (super admins first, then by name) and how many there are, in SQL. */
  async page(db: Db, search: string | undefined, limit: number, offset: number) {
    const filter = search
      ? ` AND (LOWER(username) LIKE ? ESCAPE '\\' OR grow_id_key LIKE ? ESCAPE '\\' OR id = ?)`
      : '';
    const params = search ? [containsPattern(search), containsPattern(search), search] : [];
    const rows = await db.all<AdminRow>(
      `SELECT id, username, grow_id, is_admin, is_super_admin, admin_permissions FROM users
       WHERE is_admin = 1${filter} ORDER BY is_super_admin DESC, username, id LIMIT ? OFFSET ?`,
      [...params, limit, offset],
    );
    const count = await db.get<{ n: number | string }>(
      `SELECT COUNT(*) AS n FROM users WHERE is_admin = 1${filter}`,
      params,
    );
    return {
      total: Number(count?.n ?? 0),
      rows: rows.map((r) => ({
        id: r.id,
        username: r.username,
        growId: r.grow_id,
        isAdmin: Number(r.is_admin) === 1,
        isSuperAdmin: Number(r.is_super_admin) === 1,
        permissions: storedPermissions(r.admin_permissions),
      })),
    };
  },

  /** Locks these users' rows until the transaction ends (PostgreSQL), in id order so two changes never deadlock. */
  async lock(tx: Db, ids: string[]) {
    if (tx.dialect !== 'postgres') return;
    for (const id of [...new Set(ids)].sort()) await tx.run('SELECT id FROM users WHERE id = ? FOR UPDATE', [id]);
  },

  /** Sets a user's role; permissions are cleared when they stop being an admin. */
  setRole(db: Db, id: string, role: { isAdmin: boolean; isSuperAdmin: boolean }) {
    return db.run(
      `UPDATE users SET is_admin = ?, is_super_admin = ?,
         admin_permissions = CASE WHEN ? = 1 THEN admin_permissions ELSE '[]' END WHERE id = ?`,
      [role.isAdmin ? 1 : 0, role.isSuperAdmin ? 1 : 0, role.isAdmin ? 1 : 0, id],
    );
  },

  setPermissions(db: Db, id: string, permissions: readonly string[]) {
    return db.run('UPDATE users SET admin_permissions = ? WHERE id = ?', [JSON.stringify(permissions), id]);
  },

  /**
   * Locks every super admin's row (PostgreSQL; SQLite runs one writer at a time), in id order like `lock`, so a
   * count taken afterwards stays true until the transaction ends.
   */
  async lockSuperAdmins(tx: Db) {
    if (tx.dialect !== 'postgres') return;
    await tx.run('SELECT id FROM users WHERE is_super_admin = 1 ORDER BY id FOR UPDATE');
  },

  async countSuperAdmins(db: Db): Promise<number> {
    const row = await db.get<{ n: number | string }>('SELECT COUNT(*) AS n FROM users WHERE is_super_admin = 1');
    return Number(row?.n ?? 0);
  },
};
