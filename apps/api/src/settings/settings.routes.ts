import { messages, settingsSchema } from '@canopy/contract';
import type { FastifyInstance } from 'fastify';
import { adminRoute } from '../admin/admin-route.ts';
import type { AppContext } from '../context.ts';
import { settingsRepo } from './settings.repo.ts';

/** The admin panel's global switches. */
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
    handler: async ({ body }) => {
      await settingsRepo.save(ctx.db, body);
      return { message: messages.settingsSaved, settings: body };
    },
  });
}
