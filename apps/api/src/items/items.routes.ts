import {
  allItemsResponseSchema,
  engineConfigFiles,
  type IpResponse,
  ITEMS_PAGE_SIZE,
  type ItemsPage,
  ipResponseSchema,
  itemsPageSchema,
  itemsQuerySchema,
} from '@canopy/contract';
import type { FastifyInstance } from 'fastify';
import type { Caller } from '../auth/guard.ts';
import { cachedServerFile } from '../configuration/file-cache.ts';
import type { AppContext } from '../context.ts';
import { route } from '../http/route.ts';
import { cacheRoutes } from './cache.routes.ts';
import { searchCatalog } from './item-catalog.ts';
import { ItemDatabase, itemDatabase, type ServerCustomItems } from './item-database.ts';
import { itemsDatRoutes } from './items-dat.routes.ts';
import { mayOpenItemPages, ownServer, registered } from './own-server.ts';

const bundled = new ItemDatabase(null);

/**
 * Ids and names of the base item database (no custom items): the api's own one with `ctx`, else the bundled
 * one. Used by the newbie-kit check.
 */
export async function itemNames(ctx?: AppContext) {
  return (await (ctx ? itemDatabase(ctx) : bundled).base()).catalog.names;
}

/**
 * The caller's server's custom items, from the config file cache (configuration/file-cache.ts): the item pages must
 * not start a files-only engine for an offline server at every search.
 */
async function customItemsOf(ctx: AppContext, caller: Caller): Promise<ServerCustomItems | null> {
  const server = await ownServer(ctx, caller);
  if (!server) return null;
  return { serverId: server.id, bytes: await cachedServerFile(ctx, server.id, engineConfigFiles.customItems) };
}

/** GET /items, /all-items, /ip and /cache/{file}: the item database, its textures and the game address. */
export function itemsRoutes(app: FastifyInstance, ctx: AppContext) {
  const items = itemDatabase(ctx);

  route(app, ctx, {
    method: 'GET',
    url: '/items',
    access: 'user',
    query: itemsQuerySchema,
    response: itemsPageSchema,
    handler: async ({ caller, query }): Promise<ItemsPage> => {
      mayOpenItemPages(ctx, caller);
      const found = searchCatalog(await items.catalogFor(await customItemsOf(ctx, caller)), query);
      return { ...found, page: query.page, pageSize: ITEMS_PAGE_SIZE };
    },
  });

  // Ids and names of every item (inventory and newbie-kit editors), with the caller's custom items.
  route(app, ctx, {
    method: 'GET',
    url: '/all-items',
    access: 'user',
    response: allItemsResponseSchema,
    handler: async ({ caller }) => ({ items: (await items.catalogFor(await customItemsOf(ctx, caller))).names }),
  });

  route(app, ctx, {
    method: 'GET',
    url: '/ip',
    access: 'user',
    response: ipResponseSchema,
    handler: async ({ caller }): Promise<IpResponse> => {
      registered(caller);
      return { SERVER: { IP: ctx.config.publicIp } };
    },
  });

  cacheRoutes(app, ctx, items);
  itemsDatRoutes(app, ctx);
}
