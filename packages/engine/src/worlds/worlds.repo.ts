import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import type { World, WorldMeta } from '@canopy/contract/engine';
import { WORLD_LOCKED } from '@canopy/contract/engine-constants';
import { transaction } from '../db/open.ts';
import { columnsToBlocks, decodeTiles, encodeTiles, type TileColumns } from './tiles.ts';

/** What the game layer tells the world list: players online, and how many are in a world. */
export interface Presence {
  online(): number;
  inWorld(world: string): number;
}

/** Everything about a world except its name, id and tiles. */
export type { WorldMeta };

/**
 * What a conditional write did: written (with the world's new revision), or refused because the stored world
 * is not at the expected revision (`current`: its revision, undefined when there is no such world), or is at it
 * but has another size than the save (`size`: the stored one; a whole-world save keeps a world's size).
 */
export type ConditionalSave =
  | { written: true; id: number; created: boolean; version: number }
  | { written: false; current: number | undefined; size?: { width: number; height: number } };

/** Paging and search of a list call; no limit means every row. */
export interface ListQuery {
  search?: string | undefined;
  offset?: number | undefined;
  limit?: number | undefined;
}

/** `{"<key>":<array bytes>,"total":n}` as bytes, around a JSON array that SQLite built. */
export function jsonObject(key: string, array: Uint8Array | undefined, total: number): Uint8Array {
  return Buffer.concat([Buffer.from(`{"${key}":`), array ?? Buffer.from('[]'), Buffer.from(`,"total":${total}}`)]);
}

/** A LIKE pattern matching `search` anywhere, with its wildcards escaped. */
export const containsPattern = (search: string | undefined) =>
  `%${(search ?? '').replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

const META_COLUMNS = 'owner, entry_level, ct, d_weather, music_bpm, w_s, r, g, b, weather, admins, width, height';

/** The engine's worlds; the only code that touches the worlds table. */
export function createWorldsRepo(db: DatabaseSync, presence: Presence) {
  const byName = db.prepare(
    `SELECT id, name, revision, ${META_COLUMNS}, tiles FROM worlds JOIN world_tiles ON world_id = id WHERE name = ?`,
  );
  const idByName = db.prepare('SELECT id, revision, width, height FROM worlds WHERE name = ?');
  const revisionOf = db.prepare('SELECT revision FROM worlds WHERE id = ?');
  // players_in asks the game layer how many players a world holds. The list calls it only while
  // someone is online (CASE evaluates lazily): a call per row costs about 3 ms per 10,000 worlds.
  // JS numbers arrive as REAL, hence the CAST.
  db.function('players_in', { deterministic: false }, (name) => presence.inWorld(String(name)));
  const listRows = db.prepare(
    `SELECT CAST(json_group_array(json_object('name', name, 'owner', owner,
       'players', CASE WHEN ? THEN CAST(players_in(name) AS INTEGER) ELSE 0 END,
       'locked', json(iif(d_weather = ${WORLD_LOCKED}, 'true', 'false')), 'id', id)) AS BLOB) AS j, COUNT(*) AS n
     FROM (SELECT id, name, owner, d_weather FROM worlds WHERE name LIKE ? ESCAPE '\\' ORDER BY name LIMIT ? OFFSET ?)`,
  );
  const countRows = db.prepare(`SELECT COUNT(*) AS n FROM worlds WHERE name LIKE ? ESCAPE '\\'`);
  const metaValues = (m: WorldMeta): SQLInputValue[] => [
    m.owner,
    m.entry_level,
    m.ct,
    m.d_weather,
    m.music_bpm,
    m.w_s,
    m.r,
    m.g,
    m.b,
    m.weather,
    JSON.stringify(m.admins),
    m.width,
    m.height,
  ];

  const insertMeta = db.prepare(
    `INSERT INTO worlds (name, ${META_COLUMNS}, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const updateMeta = db.prepare(
    `UPDATE worlds SET owner = ?, entry_level = ?, ct = ?, d_weather = ?, music_bpm = ?, w_s = ?, r = ?, g = ?,
       b = ?, weather = ?, admins = ?, width = ?, height = ?, updated_at = ? WHERE id = ?`,
  );
  const putTiles = db.prepare(
    'INSERT INTO world_tiles (world_id, tiles) VALUES (?, ?) ON CONFLICT (world_id) DO UPDATE SET tiles = excluded.tiles',
  );
  const insert = (name: string, meta: WorldMeta, tiles: Uint8Array, now: number) => {
    const id = Number(insertMeta.run(name, ...metaValues(meta), now, now).lastInsertRowid);
    putTiles.run(id, tiles);
    return id;
  };
  const remove = db.prepare('DELETE FROM worlds WHERE name = ?');
  const count = db.prepare('SELECT COUNT(*) AS n FROM worlds');
  // The full list is asked for far more often than worlds change (every panel visit), so its bytes are
  // kept until the next write; with players online the counts move, so it is built fresh then.
  let fullList: Uint8Array | null = null;
  const changed = () => {
    fullList = null;
  };

  return {
    /**
     * The world list as the UTF-8 JSON of `{worlds: [{name, owner, players, locked, id}], total}`,
     * ordered by name. SQLite builds the JSON and hands it over as bytes: for 10,000 rows that is one
     * buffer instead of 10,000 objects to make, serialise, encode and collect, which keeps the p99 of
     * the full list low.
     */
    list(q: ListQuery): Uint8Array {
      const everything = q.limit === undefined && !q.offset && !q.search;
      if (everything && fullList && presence.online() === 0) return fullList;
      const pattern = containsPattern(q.search);
      const page = listRows.get(presence.online() > 0 ? 1 : 0, pattern, q.limit ?? -1, q.offset ?? 0);
      // Without paging the page is every match, so its row count is the total.
      const total = q.limit === undefined && !q.offset ? page?.n : countRows.get(pattern)?.n;
      const bytes = jsonObject('worlds', page?.j as Uint8Array, Number(total ?? 0));
      if (everything && presence.online() === 0) fullList = bytes;
      return bytes;
    },

    /**
     * The stored world with its tiles as columns and its revision (`version`, see migration 4), or undefined.
     * `name` is upper-case.
     */
    getStored(
      name: string,
    ): (WorldMeta & { name: string; id: number; version: number; tiles: TileColumns }) | undefined {
      const r = byName.get(name);
      if (!r) return undefined;
      return {
        name: r.name as string,
        id: r.id as number,
        version: r.revision as number,
        owner: r.owner as string,
        entry_level: r.entry_level as number,
        ct: r.ct as number,
        d_weather: r.d_weather as 0 | 6,
        music_bpm: r.music_bpm as number,
        w_s: r.w_s as number,
        r: r.r as number,
        g: r.g as number,
        b: r.b as number,
        weather: r.weather as number,
        admins: JSON.parse(r.admins as string) as string[],
        width: r.width as number,
        height: r.height as number,
        tiles: decodeTiles(r.tiles as Uint8Array),
      };
    },

    /** The world detail (blocks as objects), or undefined. */
    get(name: string): World | undefined {
      const stored = this.getStored(name);
      if (!stored) return undefined;
      const { tiles, ...rest } = stored;
      return { ...rest, blocks: columnsToBlocks(tiles) };
    },

    /** Creates or replaces a world in one transaction; tells its id and whether it is new. */
    save(name: string, meta: WorldMeta, tiles: TileColumns, now = Date.now()): { id: number; created: boolean } {
      const outcome = this.saveIf(name, meta, tiles, 'any', now);
      if (!outcome.written) throw new Error('unreachable: an unconditional save is always written');
      return outcome;
    },

    /**
     * Creates or replaces a world only while it is at revision `expected` (compare-and-swap in one transaction:
     * nothing can change it between the check and the write); `'absent'` creates only, `'any'` always writes.
     * A conditional replace also keeps the world's width and height: one of another size is refused (`size`), in
     * the same transaction, so the api need not read the world first.
     */
    saveIf(
      name: string,
      meta: WorldMeta,
      tiles: TileColumns,
      expected: number | 'absent' | 'any',
      now = Date.now(),
    ): ConditionalSave {
      const blob = encodeTiles(tiles);
      return transaction(db, () => {
        const existing = idByName.get(name);
        const current = existing?.revision as number | undefined;
        if (expected !== 'any' && (expected === 'absent' ? existing !== undefined : current !== expected))
          return { written: false, current };
        if (existing && expected !== 'any' && (existing.width !== meta.width || existing.height !== meta.height))
          return {
            written: false,
            current,
            size: { width: existing.width as number, height: existing.height as number },
          };
        changed();
        let id: number;
        if (existing) {
          id = existing.id as number;
          updateMeta.run(...metaValues(meta), now, id);
          putTiles.run(id, blob);
        } else id = insert(name, meta, blob, now);
        return { written: true, id, created: !existing, version: revisionOf.get(id)?.revision as number };
      });
    },

    /** Inserts many new worlds in one transaction (sample data); existing names are skipped. */
    insertMany(worlds: { name: string; meta: WorldMeta; tiles: Uint8Array }[], now = Date.now()): number {
      changed();
      return transaction(db, () => {
        let n = 0;
        for (const w of worlds) {
          if (idByName.get(w.name)) continue;
          insert(w.name, w.meta, w.tiles, now);
          n++;
        }
        return n;
      });
    },

    /** Deletes a world; false when there was none. */
    delete(name: string): boolean {
      changed();
      return Number(remove.run(name).changes) > 0;
    },

    count(): number {
      return Number(count.get()?.n ?? 0);
    },
  };
}

export type WorldsRepo = ReturnType<typeof createWorldsRepo>;
