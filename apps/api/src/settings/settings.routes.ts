import { messages, settingsSchema } from '@canopy/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { route } from '../http/route.ts';
import { settingsRepo } from './settings.repo.ts';

/** The admin panel's global switches. */
export function settingsRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, ctx, {
    method: 'GET',
    url: '/admin/settings',
    access: { admin: 'settings:view' },
    handler: () => settingsRepo.load(ctx.db),
  });
  route(app, ctx, {
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
