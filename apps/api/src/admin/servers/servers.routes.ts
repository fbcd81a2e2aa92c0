import {
  adminListQuerySchema,
  adminLogsExportQuerySchema,
  adminLogsPageSchema,
  adminLogsQuerySchema,
  adminServerMessages,
  adminServersPageSchema,
  adminStatsSchema,
  messageResponseSchema,
  powerActionSchema,
  storageAnalyticsSchema,
} from '@canopy/contract';
import type { FastifyInstance } from 'fastify';
import { exportActivityCsv } from '../../activity/activity-export.ts';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { adminRoute } from '../admin-route.ts';
import { activityLogs, adminStats, storageAnalytics } from './admin-dashboard.service.ts';
import { adminDeleteServer, adminPowerAction, listServers } from './admin-servers.service.ts';

/** Admin routes of servers, the dashboard figures, storage analytics and the activity log (issue 11). */
export function adminServersRoutes(app: FastifyInstance, ctx: AppContext) {
  adminRoute(app, ctx, {
    method: 'GET',
    url: '/admin/all-servers',
    access: { admin: 'servers:view' },
    query: adminListQuerySchema,
    response: adminServersPageSchema,
    handler: ({ query }) => listServers(ctx, query.page, query.search),
  });
  adminRoute(app, ctx, {
    method: 'POST',
    url: '/admin/servers/:serverName/:action',
    access: { admin: 'servers:manage' },
    response: messageResponseSchema,
    // Under way, as the owner's action answers: the outcome arrives as status changes.
    status: 202,
    summary: 'Start, stop or restart a server (action: start | stop | restart)',
    handler: async ({ caller, params }) => {
      const action = powerActionSchema.safeParse(params.action);
      if (!action.success) throw notFound(adminServerMessages.unknownAction(params.action ?? ''), 'unknown_action');
      return adminPowerAction(ctx, caller, params.serverName ?? '', action.data);
    },
  });
  adminRoute(app, ctx, {
    method: 'DELETE',
    url: '/admin/servers/:serverName',
    access: { admin: 'servers:delete' },
    response: messageResponseSchema,
    handler: ({ caller, params }) => adminDeleteServer(ctx, caller, params.serverName ?? ''),
  });
  adminRoute(app, ctx, {
    method: 'GET',
    url: '/admin/stats',
    access: { admin: 'dashboard:view' },
    response: adminStatsSchema,
    handler: () => adminStats(ctx),
  });
  adminRoute(app, ctx, {
    method: 'GET',
    url: '/admin/storage-analytics',
    access: { admin: 'dashboard:view' },
    response: storageAnalyticsSchema,
    handler: () => storageAnalytics(ctx),
  });
  adminRoute(app, ctx, {
    method: 'GET',
    url: '/admin/logs',
    access: { admin: 'logs:view' },
    query: adminLogsQuerySchema,
    response: adminLogsPageSchema,
    handler: ({ query }) => activityLogs(ctx, query),
  });
  adminRoute(app, ctx, {
    method: 'GET',
    url: '/admin/logs/export',
    access: { admin: 'logs:view' },
    query: adminLogsExportQuerySchema,
    response: { mediaType: 'text/csv' },
    summary: 'The Activity Logs within the same filters as CSV (newest first, bounded)',
    handler: async ({ query, reply }) => {
      const { csv, truncated } = await exportActivityCsv(ctx, query);
      const day = new Date(ctx.now()).toISOString().slice(0, 10);
      reply.header('content-disposition', `attachment; filename="activity-logs-${day}.csv"`);
      reply.header('cache-control', 'no-store');
      // The file holds the newest rows only when the filter matched more: the tab can say so.
      if (truncated) reply.header('x-export-truncated', 'true');
      return reply.type('text/csv; charset=utf-8').send(csv);
    },
  });
}
