import { adminListQuerySchema, adminLogsQuerySchema, adminServerMessages, powerActionSchema } from '@canopy/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { parse } from '../../validate.ts';
import { adminRoute } from '../admin-route.ts';
import { activityLogs, adminStats, storageAnalytics } from './admin-dashboard.service.ts';
import { adminDeleteServer, adminPowerAction, listServers } from './admin-servers.service.ts';

/** Admin routes of servers, the dashboard figures, storage analytics and the activity log (issue 11). */
export function adminServersRoutes(app: FastifyInstance, ctx: AppContext) {
  adminRoute(app, ctx, {
    method: 'GET',
    url: '/admin/all-servers',
    access: { admin: 'servers:view' },
    handler: ({ query }) => {
      const q = parse(adminListQuerySchema, query, 'Query');
      return listServers(ctx, q.page, q.search);
    },
  });
  adminRoute(app, ctx, {
    method: 'POST',
    url: '/admin/servers/:serverName/:action',
    access: { admin: 'servers:manage' },
    handler: async ({ caller, params, reply }) => {
      const action = powerActionSchema.safeParse(params.action);
      if (!action.success) throw notFound(adminServerMessages.unknownAction(params.action ?? ''), 'unknown_action');
      const result = await adminPowerAction(ctx, caller, params.serverName ?? '', action.data);
      // Under way, as the owner's action answers: the outcome arrives as status changes.
      reply.code(202);
      return result;
    },
  });
  adminRoute(app, ctx, {
    method: 'DELETE',
    url: '/admin/servers/:serverName',
    access: { admin: 'servers:delete' },
    handler: ({ caller, params }) => adminDeleteServer(ctx, caller, params.serverName ?? ''),
  });
  adminRoute(app, ctx, {
    method: 'GET',
    url: '/admin/stats',
    access: { admin: 'dashboard:view' },
    handler: () => adminStats(ctx),
  });
  adminRoute(app, ctx, {
    method: 'GET',
    url: '/admin/storage-analytics',
    access: { admin: 'dashboard:view' },
    handler: () => storageAnalytics(ctx),
  });
  adminRoute(app, ctx, {
    method: 'GET',
    url: '/admin/logs',
    access: { admin: 'logs:view' },
    handler: ({ query }) => activityLogs(ctx, parse(adminLogsQuerySchema, query, 'Query').page),
  });
}
