import type { Db } from '../db/db.ts';
import type { TenantRow } from './tenants.ts';

/** A hosted server as the login page needs it: its row and its owner's ban. */
export interface GatewayServerRow extends TenantRow {
  owner_banned: number;
  owner_ban_expires: number | null;
}

/** The gateway's reads: a hosted server by its name, whatever its case. */
export const gatewayRepo = {
  findServerByName(db: Db, name: string) {
    return db.get<GatewayServerRow>(
      `SELECT s.id, s.owner_id, s.name, s.game_port, s.control_secret, s.desired_state, s.created_at, s.last_crash_at,
              s.live_status, s.control_url, s.game_address,
              u.is_banned AS owner_banned, u.ban_expires AS owner_ban_expires
         FROM servers s JOIN users u ON u.id = s.owner_id
        WHERE s.name_key = ?`,
      [name.toLowerCase()],
    );
  },
  /** The names of the servers the panel's runtime recorded ONLINE (a gateway run apart, ADR 0039). */
  async onlineNames(db: Db) {
    return (await db.all<{ name: string }>("SELECT name FROM servers WHERE live_status = 'ONLINE'")).map((r) => r.name);
  },
  /** The hosted server holding a game port, if any (one made before the default range moved off 17091). */
  serverOnPort(db: Db, port: number) {
    return db.get<{ name: string }>('SELECT name FROM servers WHERE game_port = ?', [port]);
  },
};
