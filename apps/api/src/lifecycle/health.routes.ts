import { HEALTH_PATHS, healthzResponseSchema, readyzResponseSchema } from '@canopy/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { route } from '../http/route.ts';

/**
 * GET /healthz and GET /readyz (ADR 0044): public and without a rate limit, since a load balancer or the kubelet
 * asks every few seconds from one address; never answered from a cache.
 */
export function healthRoutes(app: FastifyInstance, ctx: AppContext) {
  // Alive: the process answers HTTP. It touches nothing, so a database outage never gets the api restarted.
  route(app, ctx, {
    method: 'GET',
    url: HEALTH_PATHS.alive,
    access: 'public',
    response: healthzResponseSchema,
    summary: 'Liveness probe: the process answers HTTP',
    handler: async ({ reply }) => {
      reply.header('cache-control', 'no-store');
      return { status: 'ok' as const };
    },
  });

  route(app, ctx, {
    method: 'GET',
    url: HEALTH_PATHS.ready,
    access: 'public',
    // 503 carries the same shape with status "unavailable" and a reason.
    response: readyzResponseSchema,
    summary: 'Readiness probe: database at the latest schema, runtime booted, not shutting down',
    handler: async ({ reply }) => {
      const answer = await ctx.readiness.check();
      reply.header('cache-control', 'no-store');
      if (answer.status !== 'ready') reply.code(503);
      return answer;
    },
  });
}
