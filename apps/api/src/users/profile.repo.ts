import type { Db } from '../db/db.ts';

/** The server a profile shows: permissions is null when the user owns it, the collaborator's JSON list otherwise. */
export interface ProfileServerRow {
  id: string;
  name: string;
  owner_id: string;
  permissions: string | null;
}

// The owned server first, else the collaboration (a user collaborates on at most one server): one statement
// where the profile used to run two for everyone who owns no server.
const sql = `SELECT id, name, owner_id, permissions FROM (
    SELECT s.id, s.name, s.owner_id, NULL AS permissions, 0 AS pick, 0 AS invited_at FROM servers s WHERE s.owner_id = ?
    UNION ALL
    SELECT s.id, s.name, s.owner_id, c.permissions, 1 AS pick, c.created_at AS invited_at
      FROM collaborators c JOIN servers s ON s.id = c.server_id WHERE c.user_id = ?
  ) AS candidates ORDER BY pick, invited_at LIMIT 1`;

/** Reads only the profile call needs. */
export const profileRepo = {
  /** The user's own server, else the one they collaborate on (the earliest invitation), else undefined. */
  serverOf(db: Db, userId: string) {
    return db.get<ProfileServerRow>(sql, [userId, userId]);
  },
};
