import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { type Limiter, limiter } from '../http/rate-limits.ts';

const limiters = new WeakMap<FastifyInstance, Limiter>();

/**
 * The one per-user budget of every configuration write (creator list, autofarm delay, newbie kit, custom
 * items, texture items): each write rewrites a file, may restart the engine and adds an activity entry to the
 * platform database, so a loop of saves is refused with 429 and Retry-After (CANOPY_CONFIG_WRITE_RATE_LIMIT
 * per window). Shared by the routes of both configuration modules of one app.
 */
export function configWriteLimit(app: FastifyInstance, ctx: AppContext): Limiter {
  let limit = limiters.get(app);
  if (!limit) {
    limit = limiter(app, ctx.config.configWriteRateLimit, { db: ctx.db, name: 'configuration writes' });
    limiters.set(app, limit);
  }
  return limit;
}
