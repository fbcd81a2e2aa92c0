import type { DatabaseSync } from 'node:sqlite';
import {
  DEFAULT_MUSIC_BPM,
  DEFAULT_WORLD_COLOR,
  DEFAULT_WORLD_HEIGHT,
  DEFAULT_WORLD_WIDTH,
  WORLD_OPEN,
} from '@canopy/contract';
import { getMeta, setMeta } from '../db/open.ts';
import type { Logger } from '../log.ts';
import { generateWorld, seededRandom } from './generate.ts';
import type { WorldMeta, WorldsRepo } from './worlds.repo.ts';

/** The world every new server starts with, where players land by default. */
export const STARTING_WORLD = 'START';

/** The settings of a fresh world: no owner, open, the spec's defaults. */
export function defaultWorldMeta(width = DEFAULT_WORLD_WIDTH, height = DEFAULT_WORLD_HEIGHT): WorldMeta {
  return {
    owner: '',
    entry_level: 1,
    ct: 0,
    d_weather: WORLD_OPEN,
    music_bpm: DEFAULT_MUSIC_BPM,
    w_s: 0,
    ...DEFAULT_WORLD_COLOR,
    weather: 0,
    admins: [],
    width,
    height,
  };
}

/**
 * On the first start of a data directory, creates the starting world. It is done once: if an
 * owner deletes it later, it stays deleted.
 */
export function ensureStartingWorld(db: DatabaseSync, worlds: WorldsRepo, log: Logger): void {
  if (getMeta(db, 'initialized_at')) return;
  if (!worlds.getStored(STARTING_WORLD)) {
    worlds.save(STARTING_WORLD, defaultWorldMeta(), generateWorld(seededRandom(Date.now())));
    log.info(`First start: created the starting world ${STARTING_WORLD}`);
  }
  setMeta(db, 'initialized_at', new Date().toISOString());
}
