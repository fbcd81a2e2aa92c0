import { createHash } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Db, isDatabaseUnavailable } from '../db/db.ts';
import { AppError } from '../errors.ts';
import { rateCounterRepo } from './rate-counter.repo.ts';

/** At most `max` requests per `windowMs`. */
export interface RateRule {
  max: number;
  windowMs: number;
}

/** Counts one request under a key; refuses with 429 and Retry-After once the key is over its rule (which the OpenAPI document shows). */
export type Limiter = ((req: FastifyRequest, reply: FastifyReply, key?: string) => Promise<void>) & {
  readonly rule: RateRule;
};

/** Where a limiter's counters live when several replicas may share them: its database and a name stable across replicas. */
export interface SharedCounters {
  db: Db;
  /** Unique per limiter (a route and what it counts), the same on every replica. */
  name: string;
}

const KEY = Symbol('rate-limit key');
type Keyed = FastifyRequest & { [KEY]?: string };

const hashed = (text: string) => createHash('sha256').update(text).digest('base64url');

/** Registers @fastify/rate-limit without limiting anything by itself: routes opt in through `limiter`. */
export async function registerRateLimits(app: FastifyInstance) {
  await app.register(rateLimit, { global: false });
}

function refuse(reply: FastifyReply, seconds: number): never {
  reply.header('retry-after', String(seconds));
  throw new AppError(429, 'rate_limited', `Too many requests. Please try again in ${seconds} seconds.`);
}

/**
 * A limiter with its own counters. Without a key it counts per client IP; with one (an account id, a
 * token) it counts that key, hashed so that secrets never sit in memory as they were sent.
 * On PostgreSQL (`shared`) the counters are rows every replica counts in (ADR 0038); on SQLite, one
 * process, they stay in memory.
 */
export function limiter(app: FastifyInstance, rule: RateRule, shared?: SharedCounters): Limiter {
  if (shared?.db.dialect === 'postgres') return sharedLimiter(shared, rule);
  const check = app.createRateLimit({
    max: rule.max,
    timeWindow: rule.windowMs,
    keyGenerator: (req) => (req as Keyed)[KEY] ?? req.ip,
  });
  const count = async (req: FastifyRequest, reply: FastifyReply, key?: string) => {
    (req as Keyed)[KEY] = key === undefined ? undefined : hashed(key);
    const result = await check(req);
    if (result.isAllowed || !result.isExceeded) return;
    refuse(reply, Math.max(1, result.ttlInSeconds));
  };
  return Object.assign(count, { rule });
}

/** A fixed-window counter in PostgreSQL: one UPSERT per counted request, whichever replica it reaches. */
function sharedLimiter({ db, name }: SharedCounters, rule: RateRule): Limiter {
  const count = async (req: FastifyRequest, reply: FastifyReply, key?: string) => {
    const counterKey = hashed(`${name}\n${key === undefined ? `ip ${req.ip}` : `key ${key}`}`);
    const now = Date.now();
    const windowStart = now - (now % rule.windowMs);
    const windowEnd = windowStart + rule.windowMs;
    let hits: number;
    try {
      hits = await rateCounterRepo.hit(db, counterKey, windowStart, windowEnd);
    } catch (error) {
      // Open while the database is away: what the limit guards needs the database too and fails on its own,
      // and a route that does not (GET /auth/config) keeps working as it did with counters in memory.
      if (isDatabaseUnavailable(error)) return;
      throw error;
    }
    if (hits <= rule.max) return;
    refuse(reply, Math.max(1, Math.ceil((windowEnd - now) / 1000)));
  };
  return Object.assign(count, { rule });
}
