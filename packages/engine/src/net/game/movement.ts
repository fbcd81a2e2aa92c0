import type { TankHeader } from '../protocol/tank.ts';
import type { LiveWorld } from './live-worlds.ts';
import type { Session } from './session.ts';

/**
 * Fastest a player may move, in pixels a second: several times walking and falling speed, so speed items and
 * lag stay well inside it. Positions are the client's word; this bounds what the word can claim.
 */
export const MAX_SPEED = 1200;
/** Distance always allowed on top of the speed (3 tiles): jitter, rounding, two updates in one datagram. */
export const MOVE_SLACK = 96;
/** The time counted since the last accepted position is capped, so standing still does not bank a teleport. */
export const MAX_ELAPSED_MS = 1000;

/**
 * Whether a state update's position is one the player could have reached since the last accepted one: a finite
 * point inside the world, no farther than MAX_SPEED for the elapsed time plus MOVE_SLACK.
 */
export function plausibleMove(s: Session, w: LiveWorld, h: Pick<TankHeader, 'x' | 'y'>, now: number): boolean {
  const { x, y } = h;
  if (!Number.isFinite(x) || !Number.isFinite(y)) return false;
  if (x < 0 || y < 0 || x >= w.meta.width * 32 || y >= w.meta.height * 32) return false;
  const elapsed = Math.min(Math.max(now - s.movedAt, 0), MAX_ELAPSED_MS);
  return Math.hypot(x - s.x, y - s.y) <= (MAX_SPEED * elapsed) / 1000 + MOVE_SLACK;
}
