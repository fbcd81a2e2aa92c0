import type { TankHeader } from '../protocol/tank.ts';
import type { LiveWorld } from './live-worlds.ts';
import type { Session } from './session.ts';

/**
 * Fastest a player may move, in pixels a second: several times walking and falling speed, so speed items and
 * lag stay well inside it. Positions are the client's word; this bounds what the word can claim.
 */
export const MAX_SPEED = 1200;
/** Distance a player may cover at once on top of the speed (3 tiles): jitter, rounding, a burst after a pause. */
export const MOVE_SLACK = 96;
/** Time counted since the last accepted position is capped, so standing still does not bank a teleport. */
export const MAX_ELAPSED_MS = 1000;
/** The most a player can have to spend on one move: a second at MAX_SPEED plus the slack. */
export const MOVE_BUDGET = (MAX_SPEED * MAX_ELAPSED_MS) / 1000 + MOVE_SLACK;

/**
 * Takes a state update's position when the player could have reached it, and tells whether it did: a finite
 * point inside the world, no farther than the player's distance budget. The budget refills at MAX_SPEED (up to
 * MOVE_BUDGET) and each accepted move spends its length, so many small updates a second cannot add slack upon
 * slack: over any stretch of time a player covers at most MAX_SPEED a second plus one MOVE_BUDGET.
 */
export function takeMove(s: Session, w: LiveWorld, h: Pick<TankHeader, 'x' | 'y'>, now: number): boolean {
  const { x, y } = h;
  if (!Number.isFinite(x) || !Number.isFinite(y)) return false;
  if (x < 0 || y < 0 || x >= w.meta.width * 32 || y >= w.meta.height * 32) return false;
  const elapsed = Math.min(Math.max(now - s.movedAt, 0), MAX_ELAPSED_MS);
  const budget = Math.min(s.moveBudget + (MAX_SPEED * elapsed) / 1000, MOVE_BUDGET);
  const distance = Math.hypot(x - s.x, y - s.y);
  if (distance > budget) return false;
  s.x = x;
  s.y = y;
  s.movedAt = now;
  s.moveBudget = budget - distance;
  return true;
}

/** The server put the player somewhere (a spawn): the check starts from there with a full budget. */
export function placed(s: Session, x: number, y: number, now: number): void {
  s.x = x;
  s.y = y;
  s.movedAt = now;
  s.moveBudget = MOVE_BUDGET;
}
