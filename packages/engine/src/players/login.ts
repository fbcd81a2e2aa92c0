import type { EngineContext } from '../context.ts';
import { badRequest, EngineError } from '../errors.ts';
import { hashPassword, verifyPassword } from './password.ts';
import { playerName } from './players.service.ts';

/** Failed password checks one GrowID may take per window before further checks are refused (429). */
export const LOGIN_FAILURES_PER_NAME = 10;
export const LOGIN_WINDOW_MS = 60_000;
/** Names tracked at once: a flood of made-up names cannot grow the map without bound. */
const TRACKED_NAMES_MAX = 10_000;
const PASSWORD_MAX = 128;

// A hash to check unknown names against, so that "no such GrowID" costs the same scrypt as a wrong password
// and the answer's timing does not tell which names exist. Made once, on the first login call.
let decoyHash: Promise<string> | undefined;

interface Failures {
  count: number;
  since: number;
}

/** Per-name counts of failed password checks in a fixed window (this engine's memory; a restart clears it). */
export class LoginLimiter {
  private readonly failures = new Map<string, Failures>();
  private readonly limit: number;
  private readonly windowMs: number;
  constructor(limit = LOGIN_FAILURES_PER_NAME, windowMs = LOGIN_WINDOW_MS) {
    this.limit = limit;
    this.windowMs = windowMs;
  }

  /** Throws 429 while the name is over its limit. */
  check(name: string, now: number): void {
    const entry = this.failures.get(name.toLowerCase());
    if (entry && now - entry.since < this.windowMs && entry.count >= this.limit)
      throw new EngineError(429, 'Too many wrong passwords for this GrowID; try again in a minute.');
  }

  fail(name: string, now: number): void {
    const key = name.toLowerCase();
    const entry = this.failures.get(key);
    if (entry && now - entry.since < this.windowMs) entry.count++;
    else {
      if (this.failures.size >= TRACKED_NAMES_MAX) this.prune(now);
      this.failures.set(key, { count: 1, since: now });
    }
  }

  succeed(name: string): void {
    this.failures.delete(name.toLowerCase());
  }

  private prune(now: number): void {
    for (const [key, entry] of this.failures) if (now - entry.since >= this.windowMs) this.failures.delete(key);
    // Still full: every entry is live, so forget the oldest rather than grow.
    if (this.failures.size >= TRACKED_NAMES_MAX) {
      const oldest = this.failures.keys().next().value;
      if (oldest !== undefined) this.failures.delete(oldest);
    }
  }
}

const limiters = new WeakMap<EngineContext, LoginLimiter>();
const limiterOf = (ctx: EngineContext) => {
  let limiter = limiters.get(ctx);
  if (limiter) return limiter;
  limiter = new LoginLimiter();
  limiters.set(ctx, limiter);
  return limiter;
};

/**
 * Checks a GrowID's password for the gateway's login page: the stored name (its own case), 401 for an unknown
 * name or a wrong password (one answer for both), 403 when the player is banned (only after the password
 * matched, so a ban does not reveal a name to someone without its password), 429 after too many failures.
 */
export async function loginPlayer(
  ctx: EngineContext,
  rawName: unknown,
  password: unknown,
  now = Date.now(),
): Promise<{ name: string }> {
  if (typeof rawName !== 'string' || typeof password !== 'string') throw badRequest('name and password are required.');
  const name = playerName(rawName);
  if (!password || password.length > PASSWORD_MAX) throw new EngineError(401, 'Wrong GrowID or password.');
  const limiter = limiterOf(ctx);
  limiter.check(name, now);
  const stored = ctx.players.passwordHash(name);
  decoyHash ??= hashPassword('canopy decoy password');
  const matches = await verifyPassword(password, stored ?? (await decoyHash));
  if (!stored || !matches) {
    limiter.fail(name, now);
    throw new EngineError(401, 'Wrong GrowID or password.');
  }
  limiter.succeed(name);
  const player = ctx.players.get(name);
  if (!player) throw new EngineError(401, 'Wrong GrowID or password.');
  if (player.banned) throw new EngineError(403, `${player.name} is banned on this server.`);
  return { name: player.name };
}
