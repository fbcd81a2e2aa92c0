import {
  adminAccountPageSchema,
  adminListQuerySchema,
  adminPermissionsBodySchema,
  adminPermissionsSchema,
  adminTargetSchema,
  discordIdSchema,
  adminRoleMessages as m,
  messageResponseSchema,
} from '@canopy/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { adminRoute } from '../admin-route.ts';
import { changeRole, getPermissions, listAdmins, type RoleMove, setPermissions } from './roles.service.ts';

/** A Discord id from the path: one that is not a snowflake names no user. */
const targetOf = (params: Record<string, string>) => {
  const id = params.discordId ?? '';
  if (!discordIdSchema.safeParse(id).success) throw notFound(m.userNotFound, 'user_not_found');
  return id;
};

/**
 * The Permissions tab (admin document, sections 4, 6 and 7): super admins only, for reading the list as
 * well, since it tells who holds which powers.
 */
export function adminRolesRoutes(app: FastifyInstance, ctx: AppContext) {
  adminRoute(app, ctx, {
    method: 'GET',
    url: '/admin/admins',
    access: 'superAdmin',
    query: adminListQuerySchema,
    response: adminAccountPageSchema,
    handler: ({ query }) => listAdmins(ctx, query),
  });

  const moves: { method: 'POST' | 'DELETE'; url: string; move: RoleMove }[] = [
    { method: 'POST', url: '/admin/admins', move: 'promoteAdmin' },
    { method: 'DELETE', url: '/admin/admins/:discordId', move: 'removeAdmin' },
    { method: 'POST', url: '/admin/superadmins', move: 'promoteSuperAdmin' },
    { method: 'DELETE', url: '/admin/superadmins/:discordId', move: 'demoteSuperAdmin' },
  ];
  for (const { method, url, move } of moves) {
    if (method === 'POST')
      adminRoute(app, ctx, {
        method,
        url,
        access: 'superAdmin',
        response: messageResponseSchema,
        body: adminTargetSchema,
        handler: ({ caller, body }) => changeRole(ctx, caller.user, body.discordId, move),
      });
    else
      adminRoute(app, ctx, {
        method,
        url,
        access: 'superAdmin',
        response: messageResponseSchema,
        handler: ({ caller, params }) => changeRole(ctx, caller.user, targetOf(params), move),
      });
  }

  adminRoute(app, ctx, {
    method: 'GET',
    url: '/admin/admins/:discordId/permissions',
    access: 'superAdmin',
    response: adminPermissionsSchema,
    handler: ({ params }) => getPermissions(ctx, targetOf(params)),
  });
  adminRoute(app, ctx, {
    method: 'PUT',
    url: '/admin/admins/:discordId/permissions',
    access: 'superAdmin',
    response: messageResponseSchema,
    body: adminPermissionsBodySchema,
    handler: ({ caller, params, body }) => setPermissions(ctx, caller.user, targetOf(params), body.permissions),
  });
}
