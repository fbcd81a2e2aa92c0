import { engineListQuerySchema, enginePlayerQuerySchema } from '@canopy/contract';
import { notFound } from '../errors.ts';
import { banPlayer, getPlayer, playerName, putPlayer } from '../players/players.service.ts';
import { parseOr400 } from '../validate.ts';
import { deleteWorld, getWorld, putWorld } from '../worlds/worlds.service.ts';
import { RawJson, Reply, type Route } from './server.ts';

const one = (prefix: string) => new RegExp(`^/${prefix}/([^/]+)$`);

/** World and player routes of the control API. */
export const dataRoutes: Route[] = [
  {
    method: 'GET',
    path: /^\/worlds$/,
    handler: (ctx, { query }) => new RawJson(ctx.worlds.list(parseOr400(engineListQuerySchema, query, 'Query'))),
  },
  { method: 'GET', path: one('worlds'), handler: (ctx, { params }) => getWorld(ctx, params[0] ?? '') },
  {
    method: 'PUT',
    path: one('worlds'),
    handler: (ctx, { params, body }) => {
      const { world, created } = putWorld(ctx, params[0] ?? '', body);
      return created ? new Reply(201, world) : world;
    },
  },
  {
    method: 'DELETE',
    path: one('worlds'),
    handler: (ctx, { params }) => ({ message: `World ${deleteWorld(ctx, params[0] ?? '')} deleted.` }),
  },
  {
    method: 'GET',
    path: /^\/players$/,
    handler: (ctx, { query }) => new RawJson(ctx.players.list(parseOr400(enginePlayerQuerySchema, query, 'Query'))),
  },
  { method: 'GET', path: one('players'), handler: (ctx, { params }) => getPlayer(ctx, params[0] ?? '') },
  {
    method: 'PUT',
    path: one('players'),
    handler: async (ctx, { params, body }) => {
      const { player, created } = await putPlayer(ctx, params[0] ?? '', body);
      return created ? new Reply(201, player) : player;
    },
  },
  {
    // The spec's DELETE on a player bans them; the record stays.
    method: 'DELETE',
    path: one('players'),
    handler: (ctx, { params }) => {
      const name = playerName(params[0] ?? '');
      if (!banPlayer(ctx, name, 'banned from the panel')) throw notFound(`Player ${name} not found.`);
      return { message: `Player ${name} has been banned.` };
    },
  },
];
