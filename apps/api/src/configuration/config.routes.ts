import {
  addCreatorRequestSchema,
  configurationMessages as c,
  creatorListResponseSchema,
  farmDelayRequestSchema,
  messageResponseSchema,
  newbieKitRequestSchema,
  newbieKitResponseSchema,
  versionedConfigSaveResponseSchema,
} from '@canopy/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { route } from '../http/route.ts';
import { bodyVersion, requestedVersion, withEtag } from '../http/versioned.ts';
import { applyByRestart } from './apply-change.ts';
import { featureGate } from './config-access.ts';
import { addCreator, readCreators, removeCreator, setFarmDelay } from './general.service.ts';
import { readNewbieKit, saveNewbieKit } from './newbie-kit.service.ts';
import { configWriteLimit } from './write-limit.ts';

/**
 * Configuration: creator list, autofarm delay and newbie kit (server-management document, section 7).
 * Reads and writes go through the server's engine (config-files.ts); writes only while ONLINE or OFFLINE.
 */
export function configRoutes(app: FastifyInstance, ctx: AppContext) {
  // The admin switch is checked before the body is read: a locked feature refuses whatever is sent.
  const general = featureGate('disableGeneralConfig');
  const kit = featureGate('disableNewbieKit');
  // One budget for every configuration write of a user (write-limit.ts), counted before the body.
  const writes = configWriteLimit(app, ctx);
  route(app, ctx, {
    method: 'GET',
    url: '/users/:id/server/creator-list',
    access: 'user',
    server: 'config:manage',
    response: creatorListResponseSchema,
    admit: general,
    handler: async ({ server }) => ({ creatorList: await readCreators(ctx, server) }),
  });
  route(app, ctx, {
    method: 'POST',
    url: '/users/:id/server/creator-list',
    response: messageResponseSchema,
    rateLimit: { perCallerShared: writes },
    access: 'user',
    server: 'config:manage',
    body: addCreatorRequestSchema,
    admit: general,
    handler: async ({ server, body }) => {
      await addCreator(ctx, server, body.growId);
      return { message: c.creatorAdded };
    },
  });
  route(app, ctx, {
    method: 'DELETE',
    url: '/users/:id/server/creator-list/:growId',
    response: messageResponseSchema,
    rateLimit: { perCallerShared: writes },
    access: 'user',
    server: 'config:manage',
    admit: general,
    handler: async ({ server, params }) => {
      await removeCreator(ctx, server, params.growId ?? '');
      return { message: c.creatorRemoved };
    },
  });
  route(app, ctx, {
    method: 'POST',
    url: '/users/:id/server/farm-delay',
    response: messageResponseSchema,
    rateLimit: { perCallerShared: writes },
    access: 'user',
    server: 'config:manage',
    body: farmDelayRequestSchema,
    admit: general,
    handler: async ({ server, body }) => {
      await setFarmDelay(ctx, server, body.amount);
      return { message: c.farmDelayUpdated };
    },
  });
  route(app, ctx, {
    method: 'GET',
    url: '/users/:id/server/newbie-kit',
    access: 'user',
    server: 'config:manage',
    response: newbieKitResponseSchema,
    admit: kit,
    // Answers the file's version in the body and as the ETag; PUT names it back (ADR 0035).
    handler: async ({ server, reply }) => {
      const kit = await readNewbieKit(ctx, server);
      return withEtag(reply, kit.version, kit);
    },
  });
  route(app, ctx, {
    method: 'PUT',
    url: '/users/:id/server/newbie-kit',
    response: versionedConfigSaveResponseSchema,
    ifMatch: true,
    rateLimit: { perCallerShared: writes },
    access: 'user',
    server: 'config:manage',
    body: newbieKitRequestSchema,
    admit: kit,
    // Conditional on the version read: If-Match, or the version field of the GET's answer sent back whole.
    handler: async ({ server, body, req, reply }) => {
      const saved = await saveNewbieKit(ctx, server, body, requestedVersion(req, bodyVersion(req.body)));
      return withEtag(reply, saved.version, {
        message: c.newbieKitUpdated,
        applied: await applyByRestart(ctx, server, 'newbie kit', saved.changed),
        version: saved.version,
      });
    },
  });
}
