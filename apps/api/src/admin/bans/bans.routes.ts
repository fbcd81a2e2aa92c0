import {
  adminListQuerySchema,
  banLogPageSchema,
  banLogsQuerySchema,
  bannedServerNamePageSchema,
  banServerNameSchema,
  banUserSchema,
  bulkActionPermissions,
  bulkActionResponseSchema,
  bulkActionSchema,
  messageResponseSchema,
  adminUserMessages as um,
} from '@canopy/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { parse } from '../../validate.ts';
import { adminRoute } from '../admin-route.ts';
import { admitAccountChange, admitAlsoNeeds } from '../users/change-guard.ts';
import { banServerName, listBannedNames, unbanServerName } from './banned-names.service.ts';
import { banUser, listBanLogs, refuseAdminBan, unbanUser } from './bans.service.ts';
import { bulkAction } from './bulk.service.ts';

/** Admin bans: user bans and unbans, the ban log, banned server names and bulk actions (ADR 0020). */
export function adminBansRoutes(app: FastifyInstance, ctx: AppContext) {
  adminRoute(app, ctx, {
    method: 'POST',
    url: '/admin/users/:discordId/ban',
    access: { admin: 'users:manage' },
    describedBody: banUserSchema,
    response: messageResponseSchema,
    admit: admitAccountChange(ctx, refuseAdminBan),
    // Parsed here so that a missing body reads as the spec's text too, not 'Request body is required.'
    handler: async ({ caller, params, req }) => {
      const body = parse(banUserSchema, req.body ?? {});
      return banUser(ctx, caller.user, params.discordId ?? '', body.reason, body.duration);
    },
  });
  adminRoute(app, ctx, {
    method: 'POST',
    url: '/admin/users/:discordId/unban',
    access: { admin: 'users:manage' },
    response: messageResponseSchema,
    admit: admitAccountChange(ctx),
    handler: ({ caller, params }) => unbanUser(ctx, caller.user, params.discordId ?? ''),
  });
  adminRoute(app, ctx, {
    method: 'POST',
    url: '/admin/users/bulk-action',
    access: { admin: 'users:bulk_actions' },
    response: bulkActionResponseSchema,
    // Each action is one of the single calls, so it needs their permission too (users:manage), before the body.
    admit: admitAlsoNeeds(bulkActionPermissions, um.bulkNeedsManage),
    body: bulkActionSchema,
    handler: ({ caller, body }) => bulkAction(ctx, caller.user, body),
  });
  adminRoute(app, ctx, {
    method: 'GET',
    url: '/admin/ban-logs',
    access: { admin: 'bans:view' },
    query: banLogsQuerySchema,
    response: banLogPageSchema,
    handler: ({ query }) => listBanLogs(ctx, query),
  });
  adminRoute(app, ctx, {
    method: 'GET',
    url: '/admin/banned-servers',
    access: { admin: 'bans:view' },
    query: adminListQuerySchema,
    response: bannedServerNamePageSchema,
    handler: ({ query }) => listBannedNames(ctx, query.page, query.search),
  });
  adminRoute(app, ctx, {
    method: 'POST',
    url: '/admin/banned-servers',
    access: { admin: 'bans:manage' },
    describedBody: banServerNameSchema,
    response: messageResponseSchema,
    handler: ({ caller, req }) => {
      const body = parse(banServerNameSchema, req.body ?? {});
      return banServerName(ctx, caller.user, body.serverName, body.reason);
    },
  });
  adminRoute(app, ctx, {
    method: 'DELETE',
    url: '/admin/banned-servers/:serverName',
    access: { admin: 'bans:manage' },
    response: messageResponseSchema,
    handler: ({ caller, params }) => unbanServerName(ctx, caller.user, params.serverName ?? ''),
  });
}
