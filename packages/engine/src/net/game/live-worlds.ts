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
}

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
    if (!w.dirty) return;
    try {
      repo.save(w.name, w.meta, w.tiles);
      w.dirty = false;
    } catch (error) {
      log.error(`Saving world ${w.name} failed: ${errorMessage(error)}`);
    }
  };

  return {
    /** The live world, or it loaded (or created when unknown); 'locked' or 'invalid' when it may not be entered. */
    open(raw: string): LiveWorld | 'locked' | 'invalid' {
      if (!WORLD_NAME.test(raw)) return 'invalid';
      const name = raw.toUpperCase();
      const held = live.get(name);
      // The World Manager may lock a world while it is held: the stored row decides.
      const stored = repo.getStored(name);
      if (stored?.d_weather === WORLD_LOCKED) return 'locked';
      if (held) return held;
      let w: LiveWorld;
      if (stored) {
        const { name: _n, id: _id, tiles, ...meta } = stored;
        w = { name, meta, tiles, players: new Set(), hits: new Map(), dirty: false, timer: null };
      } else {
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
    /** Saves a world its last player left and lets it go. */
    release(w: LiveWorld) {
      save(w);
      if (w.players.size === 0) live.delete(w.name);
    },
    /** How many players a world holds (upper-case name). */
    playersIn: (name: string) => live.get(name)?.players.size ?? 0,
    /** Writes every changed world now. */
    saveAll() {
      for (const w of live.values()) save(w);
    },
  };
}

export type LiveWorlds = ReturnType<typeof createLiveWorlds>;
