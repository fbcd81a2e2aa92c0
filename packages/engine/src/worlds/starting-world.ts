import type { DatabaseSync } from 'node:sqlite';
import { defaultWorldMeta } from '@canopy/contract/engine-constants';
import { getMeta, setMeta } from '../db/open.ts';
import type { Logger } from '../log.ts';
import { generateWorld, seededRandom } from './generate.ts';
import type { WorldsRepo } from './worlds.repo.ts';

/** The world every new server starts with, where players land by default. */
export const STARTING_WORLD = 'START';

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
