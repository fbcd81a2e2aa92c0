import { createHash } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';

/** At most `max` requests per `windowMs`. */
export interface RateRule {
  max: number;
  windowMs: number;
}

/** Counts one request under a key; refuses with 429 and Retry-After once the key is over its rule. */
export type Limiter = (req: FastifyRequest, reply: FastifyReply, key?: string) => Promise<void>;

const KEY = Symbol('rate-limit key');
type Keyed = FastifyRequest & { [KEY]?: string };

/** Registers @fastify/rate-limit without limiting anything by itself: routes opt in through `limiter`. */
export async function registerRateLimits(app: FastifyInstance) {
  await app.register(rateLimit, { global: false });
}

/**
 * A limiter with its own counters. Without a key it counts per client IP; with one (an account id, a
 * token) it counts that key, hashed so that secrets never sit in memory as they were sent.
 */
export function limiter(app: FastifyInstance, rule: RateRule): Limiter {
  const check = app.createRateLimit({
    max: rule.max,
    timeWindow: rule.windowMs,
    keyGenerator: (req) => (req as Keyed)[KEY] ?? req.ip,
  });
  return async (req, reply, key) => {
    (req as Keyed)[KEY] = key === undefined ? undefined : createHash('sha256').update(key).digest('base64url');
    const result = await check(req);
    if (result.isAllowed || !result.isExceeded) return;
    const seconds = Math.max(1, result.ttlInSeconds);
    reply.header('retry-after', String(seconds));
    throw new AppError(429, 'rate_limited', `Too many requests. Please try again in ${seconds} seconds.`);
  };
}
