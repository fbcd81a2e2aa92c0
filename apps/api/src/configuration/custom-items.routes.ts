import {
  CUSTOM_TEXTURE_MAX_BASE64,
  customItemCreatedSchema,
  customItemCreateSchema,
  customItemsFileSchema,
  itemConfigResponseSchema,
  MAX_CUSTOM_ITEMS,
  MAX_EXTRA_DROPS,
  messages,
  customItemsMessages as t,
  versionedConfigSaveResponseSchema,
} from '@canopy/contract';
import type { FastifyInstance } from 'fastify';
import type { ServerAccess } from '../access/server-access.ts';
import { logServerAction } from '../activity/server-activity.ts';
import type { AppContext } from '../context.ts';
import { forbidden } from '../errors.ts';
import { DEFAULT_BODY_LIMIT } from '../http/body-limits.ts';
import { route } from '../http/route.ts';
import { ifMatchOf, withEtag } from '../http/versioned.ts';
import { WriteQueue } from '../server-data/write-queue.ts';
import { applyByRestart } from './apply-change.ts';
import { assertConfigurable } from './config-files.ts';
import { createTextureItem, readVersionedCustomItems, saveCustomItems } from './custom-items.service.ts';
import { configWriteLimit } from './write-limit.ts';

const KB = 1024;
// A custom item at its widest (every number at 2^31-1, a 100-character name, a 1000-character description,
// a full Extra_Drops list, a texture) is under 2 KB of JSON; MAX_CUSTOM_ITEMS of them plus room.
const WIDEST_ITEM_BYTES = 1600 + MAX_EXTRA_DROPS * '[65535,200],'.length;
/** PUT item-config: the whole list at its largest. */
export const ITEM_CONFIG_BODY_LIMIT = MAX_CUSTOM_ITEMS * WIDEST_ITEM_BYTES + DEFAULT_BODY_LIMIT;
/** POST custom-item: the largest texture the contract accepts as base64, plus the other fields. */
export const CUSTOM_ITEM_BODY_LIMIT = CUSTOM_TEXTURE_MAX_BASE64 + 4 * KB;

/** disableCustomItems locks both tabs for regular users; admins bypass it (spec section 6). */
function assertCustomItemsOn(access: ServerAccess) {
  if (access.settings.disableCustomItems && !access.isAdmin)
    throw forbidden(messages.featureDisabled, 'feature_disabled');
}

/**
 * One large custom-items body per server at a time, 4 waiting, then 429: a texture upload costs the api
 * about 17 MB while it is parsed, decoded and inflated (5.6 MB of JSON, its string, the bytes, the pixels),
 * so twenty sent at once held some 450 MB. A waiting upload stays in the kernel's buffers (write-queue.ts).
 */
const uploads = new WriteQueue();

// Refuses before a byte of the (possibly 5 MB) body is read, then waits for the server's turn.
const gate = async ({ server, signal }: { server: ServerAccess; signal: AbortSignal }) => {
  assertCustomItemsOn(server);
  return uploads.enter(server.server.id, signal);
};

/** Configuration: custom items and custom textures (server-management document, section 7). */
export function customItemsRoutes(app: FastifyInstance, ctx: AppContext) {
  const log = (access: ServerAccess, action: string, details: string) => logServerAction(ctx, access, action, details);
  const writes = configWriteLimit(app, ctx);

  route(app, ctx, {
    method: 'GET',
    url: '/users/:id/server/item-config',
    access: 'user',
    server: 'config:manage',
    response: itemConfigResponseSchema,
    // Answers the file's version in the body and as the ETag; PUT names it as If-Match (ADR 0035).
    handler: async ({ server, reply }) => {
      assertCustomItemsOn(server);
      const file = await readVersionedCustomItems(ctx, server);
      return withEtag(reply, file.version, file);
    },
  });

  // The answer is { message, applied } (the spec shows none; the tab toasts the spec's success text).
  route(app, ctx, {
    method: 'PUT',
    url: '/users/:id/server/item-config',
    // The shape itemConfigSchema checks: its transform (keeping only the first problem) hides it from JSON Schema.
    describedBody: customItemsFileSchema,
    response: versionedConfigSaveResponseSchema,
    ifMatch: true,
    rateLimit: { perCallerShared: writes },
    access: 'user',
    server: 'config:manage',
    admit: gate,
    // Parsed and validated on a worker thread (itemConfigSchema): 1,000 items cost the event loop tens of ms.
    rawBody: true,
    bodyLimit: ITEM_CONFIG_BODY_LIMIT,
    handler: async ({ caller, server, raw, req, reply }) => {
      const ifMatch = ifMatchOf(req);
      const body = await ctx.workers.checkBody(caller.user.id, 'itemConfig', raw, { handOver: true });
      assertConfigurable(ctx, server);
      const { version, changed } = await saveCustomItems(ctx, server, body, ifMatch);
      await log(server, 'Custom items saved', `${body.items.length} item(s)`);
      const applied = await applyByRestart(ctx, server, 'custom items', changed);
      return withEtag(reply, version, { message: t.updated, applied, version });
    },
  });

  route(app, ctx, {
    method: 'POST',
    url: '/users/:id/server/custom-item',
    describedBody: customItemCreateSchema,
    response: customItemCreatedSchema,
    rateLimit: { perCallerShared: writes },
    access: 'user',
    server: 'config:manage',
    admit: gate,
    // Parsed (customItemCreateSchema) and the texture decoded and verified on a worker thread (checkTextureUpload).
    rawBody: true,
    bodyLimit: CUSTOM_ITEM_BODY_LIMIT,
    handler: async ({ caller, server, raw }) => {
      const body = await ctx.workers.checkBody(caller.user.id, 'texture', raw, { handOver: true });
      assertConfigurable(ctx, server);
      const id = await createTextureItem(ctx, server, body);
      await log(server, 'Custom item created', `${body.itemName} (id ${id})`);
      return { message: t.created, id, applied: await applyByRestart(ctx, server, 'custom item', true) };
    },
  });
}
