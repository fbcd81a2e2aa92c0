import { MAX_WORLDS } from '@canopy/contract/engine-constants';
import type { WorldsRepo } from '../../worlds/worlds.repo.ts';
import { allow, WORLD_CREATION_WINDOW_MS, WORLD_CREATIONS } from './rate.ts';

/**
 * Who may create a world by joining an unknown name. Every creation is stored for good, so both the server
 * (MAX_WORLDS) and each player (WORLD_CREATIONS a window, by player id so a new login does not reset it)
 * are bounded. `recent` is kept by the game network across sleep and wake; it holds one entry per player who
 * created a world, so it is bounded by MAX_WORLDS too.
 */
export function createWorldQuota(worlds: WorldsRepo, now: () => number, recent = new Map<number, number[]>()) {
  return {
    /** Why `userId` may not create a world now, or undefined, in which case the creation is counted. */
    refusal(userId: number): string | undefined {
      if (worlds.count() >= MAX_WORLDS)
        return `This server has reached its limit of ${MAX_WORLDS} worlds, so no new world can be made. Join an existing world.`;
      const times = recent.get(userId) ?? [];
      if (!allow(times, WORLD_CREATIONS, WORLD_CREATION_WINDOW_MS, now()))
        return `You can create ${WORLD_CREATIONS} new worlds a minute. Wait a little, or join an existing world.`;
      recent.set(userId, times);
      return undefined;
    },
  };
}

export type WorldQuota = ReturnType<typeof createWorldQuota>;
