import { contract } from '../contract.ts';
import { notFound } from '../errors.ts';
import { banPlayer, getPlayer, playerName, putPlayer, unbanPlayer } from '../players/players.service.ts';
import { parseOr400 } from '../validate.ts';
import { deleteWorld, getWorld, putWorld } from '../worlds/worlds.service.ts';
import { RawJson, Reply, type Route } from './server.ts';

const one = (prefix: string) => new RegExp(`^/${prefix}/([^/]+)$`);

/** World and player routes of the control API. */
export const dataRoutes: Route[] = [
  {
    method: 'GET',
    path: /^\/worlds$/,
    handler: (ctx, { query }) =>
      new RawJson(ctx.worlds.list(parseOr400(contract().engineListQuerySchema, query, 'Query'))),
  },
  { method: 'GET', path: one('worlds'), handler: (ctx, { params }) => getWorld(ctx, params[0] ?? '') },
  {
    method: 'PUT',
    path: one('worlds'),
    // ?answer=brief: {name, created, version} instead of the stored world, for a caller that does not need it
    // back (the api: reading and sending 40,000 tiles again would double the cost of a large save).
    // ?version=: the api's If-Match (versioned-write.ts).
    handler: (ctx, { params, body, query }) => {
      const { name, created, version } = putWorld(ctx, params[0] ?? '', body, query.version);
      const answer = query.answer === 'brief' ? { name, created, version } : getWorld(ctx, name);
      return created ? new Reply(201, answer) : answer;
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
    handler: (ctx, { query }) =>
      new RawJson(ctx.players.list(parseOr400(contract().enginePlayerQuerySchema, query, 'Query'))),
  },
  { method: 'GET', path: one('players'), handler: (ctx, { params }) => getPlayer(ctx, params[0] ?? '') },
  {
    method: 'PUT',
    path: one('players'),
    handler: async (ctx, { params, body, query }) => {
      const { player, created } = await putPlayer(ctx, params[0] ?? '', body, query.version);
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
  {
    method: 'POST',
    path: /^\/players\/([^/]+)\/unban$/,
    handler: (ctx, { params }) => {
      const name = playerName(params[0] ?? '');
      if (!unbanPlayer(ctx, name)) throw notFound(`Player ${name} not found.`);
      return { message: `Player ${name} has been unbanned.` };
    },
  },
];
