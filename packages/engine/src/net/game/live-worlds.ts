import { defaultWorldMeta, WORLD_LOCKED } from '@canopy/contract/engine-constants';
import type { Logger } from '../../log.ts';
import { errorMessage } from '../../log.ts';
import { generateWorld, seededRandom } from '../../worlds/generate.ts';
import type { TileColumns } from '../../worlds/tiles.ts';
import type { WorldMeta, WorldsRepo } from '../../worlds/worlds.repo.ts';

/** Longest a changed world waits before it is written (docs/game-protocol.md, step 11). */
export const SAVE_DELAY_MS = 1000;

/** A world held in memory while players are in it. */
export interface LiveWorld {
  name: string;
  meta: WorldMeta;
  tiles: TileColumns;
  /** Net ids of the players in it. */
  players: Set<number>;
  /** Punches taken so far by tiles being broken (tile index → hits). */
  hits: Map<number, number>;
  dirty: boolean;
  timer: NodeJS.Timeout | null;
  /** Let go after a control API edit deleted or locked it: it is never written again. */
  dropped?: boolean;
}

/** Why a world cannot be entered (shown to the player). */
export interface Refusal {
  refused: string;
}

/** What a control API edit did to a world players are in. */
export type Reloaded = { world: LiveWorld; gone?: 'deleted' | 'locked' };

/** World names a player may type: 1-24 letters or digits. */
export const WORLD_NAME = /^[A-Za-z0-9]{1,24}$/;

/**
 * The worlds players are in, read from and written back to the worlds repository (the rows the World
 * Manager edits). A world is loaded on its first join, saved at most SAVE_DELAY_MS after a change, and
 * saved and dropped when its last player leaves.
 */
export function createLiveWorlds(repo: WorldsRepo, log: Logger) {
  const live = new Map<string, LiveWorld>();

  const save = (w: LiveWorld) => {
    if (w.timer) clearTimeout(w.timer);
    w.timer = null;
    if (!w.dirty || w.dropped) return;
    try {
      repo.save(w.name, w.meta, w.tiles);
      w.dirty = false;
    } catch (error) {
      log.error(`Saving world ${w.name} failed: ${errorMessage(error)}`);
    }
  };

  return {
    /**
     * The live world, or it loaded, or created when unknown and `mayCreate` gives no reason against it; a
     * refusal when it may not be entered.
     */
    open(raw: string, mayCreate: () => string | undefined): LiveWorld | Refusal {
      if (!WORLD_NAME.test(raw)) return { refused: 'That world name is not valid.' };
      const name = raw.toUpperCase();
      const held = live.get(name);
      // The World Manager may lock a world while it is held: the stored row decides.
      const stored = repo.getStored(name);
      if (stored?.d_weather === WORLD_LOCKED) return { refused: 'That world is locked.' };
      if (held) return held;
      let w: LiveWorld;
      if (stored) {
        const { name: _n, id: _id, version: _v, tiles, ...meta } = stored;
        w = { name, meta, tiles, players: new Set(), hits: new Map(), dirty: false, timer: null };
      } else {
        const refused = mayCreate();
        if (refused) return { refused };
        const meta = defaultWorldMeta();
        const tiles = generateWorld(seededRandom(Date.now()), meta.width, meta.height);
        w = { name, meta, tiles, players: new Set(), hits: new Map(), dirty: true, timer: null };
        save(w);
        log.info(`Created world ${name}`);
      }
      live.set(name, w);
      return w;
    },
    /** Marks a change; the world is written within SAVE_DELAY_MS. */
    changed(w: LiveWorld) {
      w.dirty = true;
      w.timer ??= setTimeout(() => save(w), SAVE_DELAY_MS);
    },
    /**
     * Writes what the game changed in a world (upper-case name) and has not saved yet, now: a control API read
     * then shows it, and a conditional write compares against it (a placed block bumps the world's revision).
     */
    flush(name: string) {
      const w = live.get(name);
      if (w) save(w);
    },
    /** Saves a world its last player left and lets it go. */
    release(w: LiveWorld) {
      save(w);
      if (w.players.size === 0 && live.get(w.name) === w) live.delete(w.name);
    },
    /**
     * After a control API edit of a world (upper-case name): a held copy takes the stored row, and what it had
     * not saved yet is dropped (the edit is newer). A world deleted or locked is let go; its players must leave.
     */
    reload(name: string): Reloaded | undefined {
      const w = live.get(name);
      if (!w) return undefined;
      if (w.timer) clearTimeout(w.timer);
      w.timer = null;
      w.dirty = false;
      w.hits.clear();
      const stored = repo.getStored(name);
      if (!stored || stored.d_weather === WORLD_LOCKED) {
        w.dropped = true;
        live.delete(name);
        return { world: w, gone: stored ? 'locked' : 'deleted' };
      }
      const { name: _n, id: _id, version: _v, tiles, ...meta } = stored;
      w.meta = meta;
      w.tiles = tiles;
      return { world: w };
    },
    /** The worlds with players in them, the fullest first (the world menu's Top Worlds). */
    populated: () =>
      [...live.values()]
        .filter((w) => w.players.size > 0)
        .map((w) => ({ name: w.name, players: w.players.size }))
        .sort((a, b) => b.players - a.players || a.name.localeCompare(b.name)),
    /** How many players a world holds (upper-case name). */
    playersIn: (name: string) => live.get(name)?.players.size ?? 0,
    /** Writes every changed world now. */
    saveAll() {
      for (const w of live.values()) save(w);
    },
  };
}

export type LiveWorlds = ReturnType<typeof createLiveWorlds>;
