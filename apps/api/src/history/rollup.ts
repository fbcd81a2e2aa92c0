import type { Db } from '../db/db.ts';
import { MINUTE, pruneBefore, resolutions, spanOf, spansToRoll } from './downsample.ts';
import { historyRepo } from './history.repo.ts';

/** What one rollup pass did (the bench prints it). */
export interface RollupReport {
  rolled: number;
  pruned: number;
}

/**
 * The scheduler's history job (its leader only): writes the platform's point of the minute that just ended, rolls
 * each span that ended (with a grace) and was not rolled yet into the coarser resolution, then prunes each
 * resolution past what it keeps. A pass that did not run for a while catches up on every span still complete.
 * Costs one indexed look-up per candidate span, and reads the finer rows of a span once, when it is rolled up.
 */
export async function rollUpHistory(db: Db, now: number): Promise<RollupReport> {
  await historyRepo.writePlatformMinute(db, spanOf(now, MINUTE) - MINUTE);
  let rolled = 0;
  let pruned = 0;
  for (const r of resolutions) {
    for (const at of spansToRoll(now, r)) {
      if (!(await historyRepo.rolled(db, 'server_samples', r.stepMs, at))) {
        await historyRepo.rollUpServers(db, r, at);
        rolled++;
      }
      if (!(await historyRepo.rolled(db, 'platform_samples', r.stepMs, at)))
        await historyRepo.rollUpPlatform(db, r, at);
    }
    pruned += await historyRepo.prune(db, r, pruneBefore(now, r));
  }
  return { rolled, pruned };
}
