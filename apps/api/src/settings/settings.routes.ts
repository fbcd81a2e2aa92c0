import { settingsSchema } from '@canopy/contract';
import type { FastifyInstance } from 'fastify';
import { adminRoute } from '../admin/admin-route.ts';
import type { AppContext } from '../context.ts';
import { settingsRepo } from './settings.repo.ts';
import { saveSettings } from './settings.service.ts';

/** The admin panel's global switches; a save is logged per switch changed (settings.service.ts). */
export function settingsRoutes(app: FastifyInstance, ctx: AppContext) {
  adminRoute(app, ctx, {
    method: 'GET',
    url: '/admin/settings',
    access: { admin: 'settings:view' },
    handler: () => settingsRepo.load(ctx.db),
  });
  adminRoute(app, ctx, {
    method: 'POST',
    url: '/admin/settings',
    access: { admin: 'settings:manage' },
    body: settingsSchema.strict(),
    handler: ({ caller, body }) => saveSettings(ctx, caller.user, body),
  });
}
