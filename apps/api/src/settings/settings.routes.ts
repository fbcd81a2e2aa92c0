import { settingsResponseSchema, settingsSaveRequestSchema, settingsSaveResponseSchema } from '@canopy/contract';
import type { FastifyInstance } from 'fastify';
import { adminRoute } from '../admin/admin-route.ts';
import type { AppContext } from '../context.ts';
import { requestedVersion, withEtag } from '../http/versioned.ts';
import { readSettings, saveSettings } from './settings.service.ts';

/** The admin panel's global switches; a save is logged per switch changed (settings.service.ts). */
export function settingsRoutes(app: FastifyInstance, ctx: AppContext) {
  adminRoute(app, ctx, {
    method: 'GET',
    url: '/admin/settings',
    access: { admin: 'settings:view' },
    response: settingsResponseSchema,
    // Answers the settings' version in the body and as the ETag; a save names it back (ADR 0035).
    handler: async ({ reply }) => {
      const settings = await readSettings(ctx);
      return withEtag(reply, settings.version, settings);
    },
  });
  adminRoute(app, ctx, {
    method: 'POST',
    url: '/admin/settings',
    access: { admin: 'settings:manage' },
    response: settingsSaveResponseSchema,
    ifMatch: true,
    body: settingsSaveRequestSchema,
    // Conditional on the version read: If-Match, or the version field of the GET's answer sent back whole.
    handler: async ({ caller, body, req, reply }) => {
      const { version, ...settings } = body;
      const saved = await saveSettings(ctx, caller.user, settings, requestedVersion(req, version));
      return withEtag(reply, saved.version, saved);
    },
  });
}
