import {
  adminListQuerySchema,
  adminUserDetailSchema,
  adminUserPageSchema,
  creditAdjustResponseSchema,
  creditAdjustSchema,
  expiryChangeSchema,
  messageResponseSchema,
  setPaidSchema,
  setStorageSchema,
  slotChangeSchema,
} from '@canopy/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { adminRoute } from '../admin-route.ts';
import { adjustCredit, listUsers, setFree, setPaid, setStorage, userDetail } from './admin-users.service.ts';
import { admitAccountChange } from './change-guard.ts';
import { changeServerDays, changeSlots } from './user-changes.ts';

/**
 * The admin Users tab (issue 11; admin document, section 7): reads need users:view, changes users:manage, and
 * a change is refused before its body when it names the caller's own account or one of an equal or higher role.
 */
export function adminUsersRoutes(app: FastifyInstance, ctx: AppContext) {
  const admit = admitAccountChange(ctx);
  adminRoute(app, ctx, {
    method: 'GET',
    url: '/admin/all-users',
    access: { admin: 'users:view' },
    query: adminListQuerySchema,
    response: adminUserPageSchema,
    handler: ({ query }) => listUsers(ctx, query.page, query.search),
  });
  adminRoute(app, ctx, {
    method: 'GET',
    url: '/admin/users/:discordId',
    access: { admin: 'users:view' },
    response: adminUserDetailSchema,
    handler: ({ params }) => userDetail(ctx, params.discordId ?? ''),
  });
  adminRoute(app, ctx, {
    method: 'POST',
    url: '/admin/users/:discordId/expiry',
    access: { admin: 'users:manage' },
    response: messageResponseSchema,
    body: expiryChangeSchema,
    admit,
    handler: ({ caller, params, body }) => changeServerDays(ctx, caller.user, params.discordId ?? '', body),
  });
  adminRoute(app, ctx, {
    method: 'POST',
    url: '/admin/users/:discordId/slot',
    access: { admin: 'users:manage' },
    response: messageResponseSchema,
    body: slotChangeSchema,
    admit,
    handler: ({ caller, params, body }) => changeSlots(ctx, caller.user, params.discordId ?? '', body),
  });
  adminRoute(app, ctx, {
    method: 'POST',
    url: '/admin/users/:discordId/set-storage',
    access: { admin: 'users:manage' },
    response: messageResponseSchema,
    body: setStorageSchema,
    admit,
    handler: ({ caller, params, body }) => setStorage(ctx, caller.user, params.discordId ?? '', body.limitMB),
  });
  adminRoute(app, ctx, {
    method: 'POST',
    url: '/admin/users/:discordId/set-paid',
    access: { admin: 'users:manage' },
    describedBody: setPaidSchema,
    response: messageResponseSchema,
    admit,
    // Parsed by the service: a missing body gets the spec's own text, not the generic one.
    handler: ({ caller, params, req }) => setPaid(ctx, caller.user, params.discordId ?? '', req.body),
  });
  adminRoute(app, ctx, {
    method: 'POST',
    url: '/admin/users/:discordId/set-free',
    access: { admin: 'users:manage' },
    response: messageResponseSchema,
    admit,
    handler: ({ caller, params }) => setFree(ctx, caller.user, params.discordId ?? ''),
  });
  adminRoute(app, ctx, {
    method: 'POST',
    url: '/admin/users/:discordId/credit',
    access: { admin: 'users:manage' },
    body: creditAdjustSchema,
    response: creditAdjustResponseSchema,
    admit,
    handler: ({ caller, params, body }) =>
      adjustCredit(ctx, caller.user, params.discordId ?? '', body.amount, body.reason),
  });
}
