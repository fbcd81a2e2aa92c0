import type { Db } from '../db/db.ts';
import { type UserRow, userColumns } from '../users/users.repo.ts';

/** A session's user row and whether the refresh-token family that issued the session has been revoked. */
export interface SessionUser {
  user: UserRow;
  familyRevoked: boolean;
}

// One statement for what every authenticated request reads: on SQLite one native call instead of two, on
// PostgreSQL one round trip instead of two. Read fresh each time (no cache), so a revocation, a ban or a
// role change made by any api process applies to the very next request.
const sql = `SELECT ${userColumns},
  EXISTS (SELECT 1 FROM refresh_tokens WHERE family_id = ? AND revoked_at IS NOT NULL) AS family_revoked
  FROM users WHERE id = ?`;

/** The reads behind authentication. */
export const sessionRepo = {
  /** The user of a session and its family's revocation, or undefined when the user does not exist. */
  async find(db: Db, userId: string, familyId: string): Promise<SessionUser | undefined> {
    const row = await db.get<UserRow & { family_revoked: number | boolean }>(sql, [familyId, userId]);
    if (!row) return undefined;
    // SQLite answers 0/1, PostgreSQL a boolean; the flag is not part of the user row handed on.
    const { family_revoked, ...user } = row;
    return { user, familyRevoked: family_revoked === true || Number(family_revoked) === 1 };
  },
};
