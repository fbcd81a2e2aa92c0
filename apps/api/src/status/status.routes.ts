import type { StatusFeedEntry } from '@canopy/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { route } from '../http/route.ts';

/** The public status feed; hosted servers arrive with the runtime (next issue), so it is empty for now. */
export function statusRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, ctx, {
    method: 'GET',
    url: '/status',
    access: 'public',
    handler: async () => ({ hostedServers: [] as StatusFeedEntry[] }),
  });
}
