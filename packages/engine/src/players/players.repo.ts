import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import type { Player } from '@canopy/contract/engine';
import { MAX_STACK, playerRoles, playerTitles } from '@canopy/contract/engine-constants';
import { transaction } from '../db/open.ts';
import { type ConditionalSave, containsPattern, jsonObject, type ListQuery } from '../worlds/worlds.repo.ts';

/** What a player record holds besides its name, id and password. */
export interface PlayerData {
  email: string;
  home_world: string;
  level: number;
  gems: number;
  xp: number;
  wl_bank_amount: number;
  dl_bank_amount: number;
  /** Role.* and Title.* flags. */
  flags: Record<string, boolean>;
  inventory: [number, number][];
}

/** Filters of the player list on top of search and paging. */
export interface PlayerQuery extends ListQuery {
  minLevel?: number | undefined;
  minGems?: number | undefined;
  role?: string | undefined;
}

const defaultFlags = Object.fromEntries([
  ...playerRoles.map((r) => [`Role.${r}`, false]),
  ...playerTitles.map((t) => [`Title.${t}`, false]),
]) as Record<string, boolean>;

/** The names of the roles a player holds, e.g. ['Moderator']. */
export const rolesOf = (flags: Record<string, boolean>) =>
  Object.keys(flags)
    .filter((k) => k.startsWith('Role.') && flags[k])
    .map((k) => k.slice(5));

// The roles are also kept as a JSON array, for the list to return as they are and to filter on.
const rolesColumn = (flags: Record<string, boolean>) => JSON.stringify(rolesOf(flags));

const DATA_COLUMNS = 'email, home_world, level, gems, xp, wl_bank_amount, dl_bank_amount, flags, roles, inventory';

/** The engine's players; the only code that touches the players table. Names match case-insensitively. */
export function createPlayersRepo(db: DatabaseSync) {
  const statements = new Map<string, StatementSync>();
  const prepare = (sql: string) => {
    let s = statements.get(sql);
    if (!s) {
      s = db.prepare(sql);
      statements.set(sql, s);
    }
    return s;
  };
  const key = (name: string) => name.trim().toLowerCase();
  const dataValues = (d: PlayerData): SQLInputValue[] => [
    d.email,
    d.home_world,
    d.level,
    d.gems,
    d.xp,
    d.wl_bank_amount,
    d.dl_bank_amount,
    JSON.stringify(d.flags),
    rolesColumn(d.flags),
    JSON.stringify(d.inventory),
  ];
  const row = (name: string) =>
    prepare(`SELECT id, name, revision, ${DATA_COLUMNS}, banned, pass_hash FROM players WHERE name_key = ?`).get(
      key(name),
    );
  // The full list (every panel visit of the Player Database) is kept as bytes while the table cannot have
  // changed: no change through this connection (total_changes) and no commit by another one (data_version).
  // Checking costs one small statement; building 10,000 rows costs ~5 ms and is most of the list's p99.
  const version = db.prepare('SELECT total_changes() AS c, (SELECT data_version FROM pragma_data_version) AS v');
  const stamp = () => {
    const r = version.get() as { c: number; v: number };
    return `${r.c}:${r.v}`;
  };
  let fullList: { stamp: string; bytes: Uint8Array } | undefined;

  return {
    /**
     * The player list as the UTF-8 JSON of `{players: [{id, name, level, gems, roles, banned}], total}`,
     * ordered by name; SQLite builds the JSON (see the worlds list for why).
     */
    list(q: PlayerQuery): Uint8Array {
      const everything =
        q.limit === undefined &&
        !q.offset &&
        !q.search &&
        q.minLevel === undefined &&
        q.minGems === undefined &&
        !q.role;
      const now = everything ? stamp() : '';
      if (everything && fullList?.stamp === now) return fullList.bytes;
      const where = ["name_key LIKE ? ESCAPE '\\'"];
      const params: SQLInputValue[] = [containsPattern(q.search?.toLowerCase())];
      const add = (condition: string, value: SQLInputValue) => {
        where.push(condition);
        params.push(value);
      };
      if (q.minLevel !== undefined) add('level >= ?', q.minLevel);
      if (q.minGems !== undefined) add('gems >= ?', q.minGems);
      if (q.role) add("roles LIKE ? ESCAPE '\\'", containsPattern(JSON.stringify(q.role)));
      const filter = where.join(' AND ');
      const page = prepare(
        `SELECT CAST(json_group_array(json_object('id', id, 'name', name, 'level', level, 'gems', gems, 'roles', json(roles),
             'banned', json(CASE WHEN banned = 1 THEN 'true' ELSE 'false' END))) AS BLOB) AS j,
           COUNT(*) AS n
         FROM (SELECT id, name, level, gems, roles, banned FROM players WHERE ${filter} ORDER BY name_key LIMIT ? OFFSET ?)`,
      ).get(...params, q.limit ?? -1, q.offset ?? 0);
      const total =
        q.limit === undefined && !q.offset
          ? page?.n
          : prepare(`SELECT COUNT(*) AS n FROM players WHERE ${filter}`).get(...params)?.n;
      const bytes = jsonObject('players', page?.j as Uint8Array, Number(total ?? 0));
      if (everything) fullList = { stamp: now, bytes };
      return bytes;
    },

    /** The player detail with pass blanked, or undefined. */
    get(name: string): Player | undefined {
      const r = row(name);
      if (!r) return undefined;
      return {
        name: r.name as string,
        id: r.id as number,
        version: r.revision as number,
        pass: '',
        email: r.email as string,
        home_world: r.home_world as string,
        level: r.level as number,
        gems: r.gems as number,
        xp: r.xp as number,
        wl_bank_amount: r.wl_bank_amount as number,
        dl_bank_amount: r.dl_bank_amount as number,
        ...defaultFlags,
        ...(JSON.parse(r.flags as string) as Record<string, boolean>),
        inventory: JSON.parse(r.inventory as string) as [number, number][],
        banned: r.banned === 1,
      };
    },

    /** The stored password hash (for the login of the game protocol), or undefined. */
    passwordHash(name: string): string | undefined {
      return row(name)?.pass_hash as string | undefined;
    },

    exists(name: string): boolean {
      return prepare('SELECT 1 FROM players WHERE name_key = ?').get(key(name)) !== undefined;
    },

    /**
     * Creates or replaces a player. passHash undefined keeps the current password (a new player
     * must have one); banned undefined keeps the current state.
     */
    save(name: string, data: PlayerData, passHash: string | undefined, banned?: boolean, now = Date.now()) {
      const outcome = this.saveIf(name, data, passHash, banned, 'any', now);
      if (!outcome.written) throw new Error('unreachable: an unconditional save is always written');
      return { id: outcome.id, created: outcome.created };
    },

    /**
     * save, only while the player is at revision `expected` (compare-and-swap in one transaction, as the worlds'
     * saveIf); `'absent'` creates only, `'any'` always writes. The outcome carries the new revision.
     */
    saveIf(
      name: string,
      data: PlayerData,
      passHash: string | undefined,
      banned: boolean | undefined,
      expected: number | 'absent' | 'any',
      now = Date.now(),
    ): ConditionalSave {
      return transaction(db, (): ConditionalSave => {
        const existing = prepare('SELECT id, pass_hash, banned, revision FROM players WHERE name_key = ?').get(
          key(name),
        );
        const current = existing?.revision as number | undefined;
        if (expected !== 'any' && (expected === 'absent' ? existing !== undefined : current !== expected))
          return { written: false, current };
        const revision = (id: number) =>
          prepare('SELECT revision FROM players WHERE id = ?').get(id)?.revision as number;
        if (!existing) {
          if (!passHash) throw new Error('A new player needs a password.');
          const result = prepare(
            `INSERT INTO players (name, name_key, pass_hash, ${DATA_COLUMNS}, banned, created_at, updated_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          ).run(name.trim(), key(name), passHash, ...dataValues(data), banned ? 1 : 0, now, now);
          const id = Number(result.lastInsertRowid);
          return { written: true, id, created: true, version: revision(id) };
        }
        prepare(
          `UPDATE players SET pass_hash = ?, email = ?, home_world = ?, level = ?, gems = ?, xp = ?, wl_bank_amount = ?,
             dl_bank_amount = ?, flags = ?, roles = ?, inventory = ?, banned = ?, updated_at = ? WHERE id = ?`,
        ).run(
          passHash ?? (existing.pass_hash as string),
          ...dataValues(data),
          banned === undefined ? (existing.banned as number) : banned ? 1 : 0,
          now,
          existing.id as number,
        );
        return { written: true, id: existing.id as number, created: false, version: revision(existing.id as number) };
      });
    },

    /** Inserts a new player in one statement; false when the name (any case) is taken. */
    create(name: string, data: PlayerData, passHash: string, now = Date.now()): boolean {
      const result = prepare(
        `INSERT INTO players (name, name_key, pass_hash, ${DATA_COLUMNS}, banned, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?) ON CONFLICT (name_key) DO NOTHING`,
      ).run(name.trim(), key(name), passHash, ...dataValues(data), now, now);
      return Number(result.changes) > 0;
    },

    /** Bans or unbans a player; false when there is no such player. */
    setBanned(name: string, banned: boolean, reason = '', now = Date.now()): boolean {
      const result = prepare(
        'UPDATE players SET banned = ?, ban_reason = ?, banned_at = ?, updated_at = ? WHERE name_key = ?',
      ).run(banned ? 1 : 0, banned ? reason : null, banned ? now : null, now, key(name));
      return Number(result.changes) > 0;
    },

    /**
     * Adds (or with a negative amount takes) items, within 0 and the stack limit; an emptied stack is removed.
     * Undefined when there is no such player.
     */
    giveItem(name: string, itemId: number, amount: number): { given: number; count: number } | undefined {
      return transaction(db, () => {
        const r = prepare('SELECT id, inventory FROM players WHERE name_key = ?').get(key(name));
        if (!r) return undefined;
        const inventory = JSON.parse(r.inventory as string) as [number, number][];
        const slot = inventory.find(([id]) => id === itemId);
        const had = slot?.[1] ?? 0;
        const count = Math.max(0, Math.min(MAX_STACK, had + amount));
        if (slot) slot[1] = count;
        else if (count > 0) inventory.push([itemId, count]);
        prepare('UPDATE players SET inventory = ?, updated_at = ? WHERE id = ?').run(
          JSON.stringify(inventory.filter(([, n]) => n > 0)),
          Date.now(),
          r.id as number,
        );
        return { given: count - had, count };
      });
    },

    /** Adds gems; undefined when there is no such player. */
    giveGems(name: string, amount: number): number | undefined {
      const r = prepare(
        'UPDATE players SET gems = MIN(gems + ?, 2147483647), updated_at = ? WHERE name_key = ? RETURNING gems',
      ).get(amount, Date.now(), key(name));
      return r ? (r.gems as number) : undefined;
    },

    /** Inserts many new players in one transaction (sample data); existing names are skipped. */
    insertMany(players: { name: string; passHash: string; data: PlayerData }[], now = Date.now()): number {
      return transaction(db, () => {
        const insert = prepare(
          `INSERT OR IGNORE INTO players (name, name_key, pass_hash, ${DATA_COLUMNS}, banned, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)`,
        );
        let n = 0;
        for (const p of players)
          n += Number(insert.run(p.name, key(p.name), p.passHash, ...dataValues(p.data), now, now).changes);
        return n;
      });
    },

    count(): number {
      return Number(prepare('SELECT COUNT(*) AS n FROM players').get()?.n ?? 0);
    },
  };
}

export type PlayersRepo = ReturnType<typeof createPlayersRepo>;
