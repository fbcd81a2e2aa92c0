import type { Db } from '../db/db.ts';

export interface ServerRow {
  id: string;
  owner_id: string;
  name: string;
  game_port: number;
  /** '' since ADR 0011 (derived from the host control key); set only on servers created before it. */
  control_secret: string;
  desired_state: 'running' | 'stopped';
  created_at: number;
  last_crash_at: number | null;
}

const columns = 'id, owner_id, name, game_port, control_secret, desired_state, created_at, last_crash_at';

/** Hosted servers: one per owner, names unique whatever their case. */
export const serversRepo = {
  findByOwner(db: Db, ownerId: string) {
    return db.get<ServerRow>(`SELECT ${columns} FROM servers WHERE owner_id = ?`, [ownerId]);
  },
  findById(db: Db, id: string) {
    return db.get<ServerRow>(`SELECT ${columns} FROM servers WHERE id = ?`, [id]);
  },
  all(db: Db) {
    return db.all<ServerRow>(`SELECT ${columns} FROM servers ORDER BY created_at`);
  },
  /**
   * Records the runtime's status and, while ONLINE, the engine's control URL and, when the runtime names one, the game
   * address (host:port; kubernetes, ADR 0043): read by a gateway run apart (ADR 0039).
   */
  setLive(db: Db, id: string, status: string, controlUrl: string | null, gameAddress: string | null = null) {
    return db.run('UPDATE servers SET live_status = ?, control_url = ?, game_address = ? WHERE id = ?', [
      status,
      controlUrl,
      gameAddress,
      id,
    ]);
  },
  /** Records what the server's files take, as its engine reported it (server-usage.ts). */
  setDataBytes(db: Db, id: string, bytes: number) {
    return db.run('UPDATE servers SET data_bytes = ? WHERE id = ?', [bytes, id]);
  },
  /** The recorded data_bytes of a server (null: never measured, or no such server). */
  async dataBytes(db: Db, id: string): Promise<number | null> {
    const b = (await db.get<{ b: number | string | null }>('SELECT data_bytes AS b FROM servers WHERE id = ?', [id]))
      ?.b;
    return b === null || b === undefined ? null : Number(b);
  },
  /** The recorded data_bytes of every server, by id (null: never measured). */
  async allDataBytes(db: Db): Promise<Map<string, number | null>> {
    const rows = await db.all<{ id: string; b: number | string | null }>('SELECT id, data_bytes AS b FROM servers');
    return new Map(rows.map((r) => [r.id, r.b === null ? null : Number(r.b)]));
  },
  /** Counts an activity entry the server's writes added to the platform database (logServerAction). */
  addActivityBytes(db: Db, id: string, bytes: number) {
    return db.run('UPDATE servers SET activity_bytes = activity_bytes + ? WHERE id = ?', [bytes, id]);
  },
  /** What the server's activity entries store in the platform database, in bytes (0 for no such server). */
  async activityBytes(db: Db, id: string): Promise<number> {
    return Number(
      (await db.get<{ b: number | string }>('SELECT activity_bytes AS b FROM servers WHERE id = ?', [id]))?.b ?? 0,
    );
  },
  /** activityBytes of every server, by id (the scheduler's storage pass). */
  async allActivityBytes(db: Db): Promise<Map<string, number>> {
    const rows = await db.all<{ id: string; b: number | string }>('SELECT id, activity_bytes AS b FROM servers');
    return new Map(rows.map((r) => [r.id, Number(r.b)]));
  },
  async nameTaken(db: Db, name: string): Promise<boolean> {
    return (await db.get('SELECT id FROM servers WHERE name_key = ?', [name.toLowerCase()])) !== undefined;
  },
  /**
   * Serialises game-port allocation until the transaction ends, across api processes too; SQLite
   * transactions are already serial (BEGIN IMMEDIATE behind one connection).
   */
  async lockPortAllocation(tx: Db): Promise<void> {
    if (tx.dialect === 'postgres') await tx.run('SELECT pg_advisory_xact_lock(7212028)');
  },
  async usedPorts(db: Db): Promise<Set<number>> {
    return new Set((await db.all<{ game_port: number }>('SELECT game_port FROM servers')).map((r) => r.game_port));
  },
  insert(db: Db, s: Omit<ServerRow, 'desired_state' | 'last_crash_at'>) {
    // A new server stores nothing yet (data_bytes 0): no files-only engine is started just to measure it.
    return db.run(
      'INSERT INTO servers (id, owner_id, name, name_key, game_port, control_secret, created_at, data_bytes) VALUES (?, ?, ?, ?, ?, ?, ?, 0)',
      [s.id, s.owner_id, s.name, s.name.toLowerCase(), s.game_port, s.control_secret, s.created_at],
    );
  },
  delete(db: Db, id: string) {
    return db.run('DELETE FROM servers WHERE id = ?', [id]);
  },
  /** Forgets a control secret stored before ADR 0011; the runtime derives it from then on. */
  dropStoredSecret(db: Db, id: string) {
    return db.run("UPDATE servers SET control_secret = '' WHERE id = ?", [id]);
  },
  setDesiredState(db: Db, id: string, state: 'running' | 'stopped') {
    return db.run('UPDATE servers SET desired_state = ? WHERE id = ?', [state, id]);
  },
  /** Changes the wish only while it is still `from` (what the caller read); false when another request changed it. */
  async setDesiredStateIf(db: Db, id: string, from: 'running' | 'stopped', to: 'running' | 'stopped') {
    const { changes } = await db.run('UPDATE servers SET desired_state = ? WHERE id = ? AND desired_state = ?', [
      to,
      id,
      from,
    ]);
    return changes === 1;
  },
  setLastCrash(db: Db, id: string, at: number) {
    return db.run('UPDATE servers SET last_crash_at = ? WHERE id = ?', [at, id]);
  },
};

/** Names an admin has banned from use as server names. */
export const bannedNamesRepo = {
  async isBanned(db: Db, name: string): Promise<boolean> {
    return (
      (await db.get('SELECT name_key FROM banned_server_names WHERE name_key = ?', [name.toLowerCase()])) !== undefined
    );
  },
  add(db: Db, name: string, reason: string | null, now: number) {
    return db.run(
      'INSERT INTO banned_server_names (name_key, name, reason, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (name_key) DO NOTHING',
      [name.toLowerCase(), name, reason, now],
    );
  },
};
