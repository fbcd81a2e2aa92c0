import { randomUUID } from 'node:crypto';
import type { Db, SqlValue } from '../../db/db.ts';
import { containsPattern, pageWindow } from '../paging.ts';

export interface BanLogRow {
  id: string;
  user_id: string;
  discord_username: string;
  grow_id: string | null;
  banned_by: string;
  reason: string;
  banned_at: number;
  expires: number | null;
  unbanned_at: number | null;
  unbanned_by: string | null;
}

export interface BannedNameRow {
  name: string;
  reason: string | null;
  banned_by: string | null;
  created_at: number;
}

/** A ban as stored on the users row and in its log row. */
export interface BanRecord {
  reason: string;
  bannedBy: string;
  bannedAt: number;
  /** null: permanent. */
  expires: number | null;
}

const logSearch = `(LOWER(discord_username) LIKE ? ESCAPE '\\' OR LOWER(COALESCE(grow_id, '')) LIKE ? ESCAPE '\\'
  OR user_id LIKE ? ESCAPE '\\' OR LOWER(reason) LIKE ? ESCAPE '\\')`;

/** What the Ban Logs tab narrows its list to: a text (name, GrowID, Discord id or reason), a ban date range. */
export interface BanLogFilter {
  search?: string;
  from?: number;
  to?: number;
}

function banLogWhere(filter: BanLogFilter): { where: string; args: SqlValue[] } {
  const parts: string[] = [];
  const args: SqlValue[] = [];
  if (filter.search) {
    const like = containsPattern(filter.search);
    parts.push(logSearch);
    args.push(like, like, like, like);
  }
  if (filter.from !== undefined) {
    parts.push('banned_at >= ?');
    args.push(filter.from);
  }
  if (filter.to !== undefined) {
    parts.push('banned_at <= ?');
    args.push(filter.to);
  }
  return { where: parts.length ? `WHERE ${parts.join(' AND ')}` : '', args };
}

/** User bans (the users row's ban fields) and their log. */
export const bansRepo = {
  setBan(db: Db, userId: string, ban: BanRecord) {
    return db.run(
      'UPDATE users SET is_banned = 1, ban_reason = ?, banned_by = ?, banned_at = ?, ban_expires = ? WHERE id = ?',
      [ban.reason, ban.bannedBy, ban.bannedAt, ban.expires, userId],
    );
  },

  clearBan(db: Db, userId: string) {
    return db.run(
      'UPDATE users SET is_banned = 0, ban_reason = NULL, banned_by = NULL, banned_at = NULL, ban_expires = NULL WHERE id = ?',
      [userId],
    );
  },

  addLog(db: Db, row: Omit<BanLogRow, 'id' | 'unbanned_at' | 'unbanned_by'>) {
    return db.run(
      `INSERT INTO ban_logs (id, user_id, discord_username, grow_id, banned_by, reason, banned_at, expires)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        randomUUID(),
        row.user_id,
        row.discord_username,
        row.grow_id,
        row.banned_by,
        row.reason,
        row.banned_at,
        row.expires,
      ],
    );
  },

  /** Ends the user's bans that still hold at `now` (an unban, or a newer ban replacing them). */
  closeOpenLogs(db: Db, userId: string, now: number, by: string) {
    return db.run(
      `UPDATE ban_logs SET unbanned_at = ?, unbanned_by = ?
       WHERE user_id = ? AND unbanned_at IS NULL AND (expires IS NULL OR expires > ?)`,
      [now, by, userId, now],
    );
  },

  /** One page of the ban log within `filter`, newest first. */
  async logPage(db: Db, page: number, filter: BanLogFilter = {}) {
    const { where, args } = banLogWhere(filter);
    const { limit, offset } = pageWindow(page);
    const [rows, count] = await Promise.all([
      db.all<BanLogRow>(
        `SELECT id, user_id, discord_username, grow_id, banned_by, reason, banned_at, expires, unbanned_at, unbanned_by
         FROM ban_logs ${where} ORDER BY banned_at DESC, id DESC LIMIT ? OFFSET ?`,
        [...args, limit, offset],
      ),
      db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ban_logs ${where}`, args),
    ]);
    return { rows, total: Number(count?.n ?? 0) };
  },
};

/** Names an admin banned from use as server names, keyed by the lower-cased name. */
export const bannedNamesAdminRepo = {
  /** Adds the name; false when it was already banned (whatever its case). */
  async add(db: Db, name: string, reason: string, bannedBy: string, now: number): Promise<boolean> {
    const r = await db.run(
      `INSERT INTO banned_server_names (name_key, name, reason, banned_by, created_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (name_key) DO NOTHING`,
      [name.toLowerCase(), name, reason, bannedBy, now],
    );
    return r.changes === 1;
  },

  /** Removes the name; false when it was not banned. */
  async remove(db: Db, name: string): Promise<boolean> {
    const r = await db.run('DELETE FROM banned_server_names WHERE name_key = ?', [name.toLowerCase()]);
    return r.changes === 1;
  },

  /** One page of banned names, newest first, optionally matching part of the name. */
  async page(db: Db, page: number, search?: string) {
    const where = search ? "WHERE name_key LIKE ? ESCAPE '\\'" : '';
    const args = search ? [containsPattern(search)] : [];
    const { limit, offset } = pageWindow(page);
    const [rows, count] = await Promise.all([
      db.all<BannedNameRow>(
        `SELECT name, reason, banned_by, created_at FROM banned_server_names ${where}
         ORDER BY created_at DESC, name_key LIMIT ? OFFSET ?`,
        [...args, limit, offset],
      ),
      db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM banned_server_names ${where}`, args),
    ]);
    return { rows, total: Number(count?.n ?? 0) };
  },
};
