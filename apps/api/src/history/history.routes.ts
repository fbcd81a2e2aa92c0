import { adminHistoryResponseSchema, historyQuerySchema, serverHistoryResponseSchema } from '@canopy/contract';
import type { FastifyInstance } from 'fastify';
import { adminRoute } from '../admin/admin-route.ts';
import type { AppContext } from '../context.ts';
import { route } from '../http/route.ts';
import { adminHistory, serverHistory } from './history.service.ts';

/**
 * History charts (issue 24, item 2). A server's history is the owner's, and a collaborator's who may act on the
 * server's power (server:actions: who may restart a struggling server may see why); the platform's is the
 * admin Dashboard's (dashboard:view).
 */
export function historyRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, ctx, {
    method: 'GET',
    url: '/users/:id/server/history',
    access: 'user',
    server: 'server:actions',
    query: historyQuerySchema,
    response: serverHistoryResponseSchema,
    handler: ({ server, query }) => serverHistory(ctx, server.server.id, query.range),
  });
  adminRoute(app, ctx, {
    method: 'GET',
    url: '/admin/history',
    access: { admin: 'dashboard:view' },
    query: historyQuerySchema,
    response: adminHistoryResponseSchema,
    handler: ({ query }) => adminHistory(ctx, query.range),
  });
}
