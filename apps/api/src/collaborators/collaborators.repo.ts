import type { Db } from '../db/db.ts';
import type { ServerRow } from '../servers/servers.repo.ts';

export interface CollaboratorRow {
  user_id: string;
  username: string;
  grow_id: string | null;
  permissions: string;
  created_at: number;
}

/** People an owner invited to their server, with the permissions granted to each. */
export const collaboratorsRepo = {
  /**
   * Locks a user's row until the transaction ends, so that deciding "owns no server and collaborates
   * on none" and the write that relies on it cannot interleave with another request about the same
   * user (PostgreSQL; SQLite transactions are already serial).
   */
  async lockUser(tx: Db, userId: string): Promise<void> {
    if (tx.dialect === 'postgres') await tx.run('SELECT id FROM users WHERE id = ? FOR UPDATE', [userId]);
  },
  list(db: Db, serverId: string) {
    return db.all<CollaboratorRow>(
      `SELECT c.user_id, u.username, u.grow_id, c.permissions, c.created_at
       FROM collaborators c JOIN users u ON u.id = c.user_id WHERE c.server_id = ? ORDER BY c.created_at`,
      [serverId],
    );
  },
  find(db: Db, serverId: string, userId: string) {
    return db.get<{ permissions: string }>(
      'SELECT permissions FROM collaborators WHERE server_id = ? AND user_id = ?',
      [serverId, userId],
    );
  },
  /** The server a user collaborates on (the earliest invitation) with their permissions. */
  serverOf(db: Db, userId: string) {
    return db.get<ServerRow & { permissions: string }>(
      `SELECT s.id, s.owner_id, s.name, s.game_port, s.control_secret, s.desired_state, s.created_at, s.last_crash_at,
         c.permissions
       FROM collaborators c JOIN servers s ON s.id = c.server_id WHERE c.user_id = ? ORDER BY c.created_at LIMIT 1`,
      [userId],
    );
  },
  /** Everyone who may see a server's status and console: owner and collaborators. */
  async audience(db: Db, serverId: string): Promise<string[]> {
    const rows = await db.all<{ user_id: string }>('SELECT user_id FROM collaborators WHERE server_id = ?', [serverId]);
    return rows.map((r) => r.user_id);
  },
  add(db: Db, serverId: string, userId: string, permissions: string[], now: number) {
    return db.run('INSERT INTO collaborators (server_id, user_id, permissions, created_at) VALUES (?, ?, ?, ?)', [
      serverId,
      userId,
      JSON.stringify(permissions),
      now,
    ]);
  },
  update(db: Db, serverId: string, userId: string, permissions: string[]) {
    return db.run('UPDATE collaborators SET permissions = ? WHERE server_id = ? AND user_id = ?', [
      JSON.stringify(permissions),
      serverId,
      userId,
    ]);
  },
  remove(db: Db, serverId: string, userId: string) {
    return db.run('DELETE FROM collaborators WHERE server_id = ? AND user_id = ?', [serverId, userId]);
  },
};
