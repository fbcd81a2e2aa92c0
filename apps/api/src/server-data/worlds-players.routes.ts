import {
  messageResponseSchema,
  type Player,
  serverPageMessages as p,
  playerListResponseSchema,
  playerPutSchema,
  playerSaveResponseSchema,
  playerSchema,
  type World,
  type WorldSaveResponse,
  worldListResponseSchema,
  worldNameSchema,
  worldPutSchema,
  worldSaveResponseSchema,
  worldSchema,
} from '@canopy/contract';
import type { FastifyInstance } from 'fastify';
import type { ServerAccess } from '../access/server-access.ts';
import { logServerAction } from '../activity/server-activity.ts';
import type { AppContext } from '../context.ts';
import { PLAYER_PUT_BODY_LIMIT, WORLD_PUT_BODY_LIMIT } from '../http/body-limits.ts';
import { route } from '../http/route.ts';
import { ifMatchOf, withEtag } from '../http/versioned.ts';
import { parse } from '../validate.ts';
import { bodyBytes, engineCall, engineForward, engineWrite, onlineEngine } from './engine-proxy.ts';
import { WriteQueue } from './write-queue.ts';

const enc = encodeURIComponent;
/** The engine's query naming the version of a conditional write (its If-Match). */
const versionQuery = (version: string | undefined) => (version === undefined ? '' : `version=${enc(version)}`);

/** Worlds and players of the caller's running server, served from its engine's control API. */
export function worldsPlayersRoutes(app: FastifyInstance, ctx: AppContext) {
  const worldWrites = new WriteQueue();
  const worlds = (server: ServerAccess) => onlineEngine(ctx, server.server, p.worldsOffline);
  const players = (server: ServerAccess) => onlineEngine(ctx, server.server, p.playersOffline);
  // After the engine saved: a failing log entry must not answer 500 for a saved change (engine-proxy).
  const log = (access: ServerAccess, action: string, details: string) => logServerAction(ctx, access, action, details);

  route(app, ctx, {
    method: 'GET',
    url: '/users/:id/server/worlds',
    access: 'user',
    server: 'worlds:manage',
    response: worldListResponseSchema,
    handler: async ({ server }) => engineCall(worlds(server), 'GET', '/worlds'),
  });
  route(app, ctx, {
    method: 'GET',
    url: '/users/:id/server/worlds/:name',
    access: 'user',
    server: 'worlds:manage',
    response: worldSchema,
    handler: async ({ server, params, reply }) => {
      const world = await engineCall<World>(worlds(server), 'GET', `/worlds/${enc(params.name ?? '')}`);
      return withEtag(reply, world.version, world);
    },
  });
  // A whole world (up to about 3 MB) is never parsed on the api's event loop (bench/hostile.ts): a worker
  // thread checks it with the contract schema, then its bytes go to the engine, which checks it again.
  // The answer is { message, version } (the spec shows none): sending the world back would double the cost.
  // The write is conditional on the version read, If-Match or the body's version field (ADR 0035): the engine
  // compares and writes in one step and answers 409 when the game changed the world since.
  route(app, ctx, {
    method: 'PUT',
    url: '/users/:id/server/worlds/:name',
    access: 'user',
    server: 'worlds:manage',
    describedBody: worldPutSchema,
    response: worldSaveResponseSchema,
    ifMatch: true,
    rawBody: true,
    bodyLimit: WORLD_PUT_BODY_LIMIT,
    admit: ({ server, signal }) => worldWrites.enter(server.server.id, signal),
    handler: async ({ caller, server, params, raw, req, reply }) => {
      const name = parse(worldNameSchema, params.name ?? '', 'World name');
      // Checked on a worker before the engine sees it: tile count against the size, then the contract schema.
      await ctx.workers.checkBody(caller.user.id, 'world', raw);
      const ifMatch = ifMatchOf(req);
      const answer = await engineForward(ctx, server, worlds(server), {
        method: 'PUT',
        path: `/worlds/${enc(name)}?answer=brief&${versionQuery(ifMatch)}`,
        raw,
      });
      const { version } = JSON.parse(answer.toString('utf8')) as Pick<WorldSaveResponse, 'version'>;
      await log(server, 'World saved', name);
      return withEtag(reply, version, { message: p.worldSaved, version });
    },
  });
  route(app, ctx, {
    method: 'DELETE',
    url: '/users/:id/server/worlds/:name',
    access: 'user',
    server: 'worlds:manage',
    response: messageResponseSchema,
    handler: async ({ server, params }) => {
      await engineCall(worlds(server), 'DELETE', `/worlds/${enc(params.name ?? '')}`);
      await log(server, 'World deleted', params.name ?? '');
      return { message: p.worldDeleted };
    },
  });

  route(app, ctx, {
    method: 'GET',
    url: '/users/:id/server/players',
    access: 'user',
    server: 'players:manage',
    response: playerListResponseSchema,
    handler: async ({ server }) => engineCall(players(server), 'GET', '/players'),
  });
  route(app, ctx, {
    method: 'GET',
    url: '/users/:id/server/players/:name',
    access: 'user',
    server: 'players:manage',
    response: playerSchema,
    handler: async ({ server, params, reply }) => {
      const player = await engineCall<Player>(players(server), 'GET', `/players/${enc(params.name ?? '')}`);
      return withEtag(reply, player.version, player);
    },
  });
  route(app, ctx, {
    method: 'PUT',
    url: '/users/:id/server/players/:name',
    access: 'user',
    server: 'players:manage',
    body: playerPutSchema,
    response: playerSaveResponseSchema,
    ifMatch: true,
    bodyLimit: PLAYER_PUT_BODY_LIMIT,
    // Conditional like the world's PUT: If-Match or the body's version.
    handler: async ({ server, params, body, req, reply }) => {
      const path = `/players/${enc(params.name ?? '')}?${versionQuery(ifMatchOf(req))}`;
      const player = await engineWrite<Player>(ctx, server, players(server), {
        method: 'PUT',
        path,
        body,
        growth: bodyBytes(req),
      });
      await log(server, 'Player saved', params.name ?? '');
      return withEtag(reply, player.version, { message: p.playerSaved, player });
    },
  });
  route(app, ctx, {
    method: 'DELETE',
    url: '/users/:id/server/players/:name',
    access: 'user',
    server: 'players:manage',
    response: messageResponseSchema,
    handler: async ({ server, params }) => {
      await engineCall(players(server), 'DELETE', `/players/${enc(params.name ?? '')}`);
      await log(server, 'Player banned', params.name ?? '');
      return { message: p.playerBanned };
    },
  });
  // Not in the spec's call list; the Player Database needs a way back from a ban (issue 8, item 15).
  route(app, ctx, {
    method: 'POST',
    url: '/users/:id/server/players/:name/unban',
    access: 'user',
    server: 'players:manage',
    response: messageResponseSchema,
    handler: async ({ server, params }) => {
      await engineCall(players(server), 'POST', `/players/${enc(params.name ?? '')}/unban`);
      await log(server, 'Player unbanned', params.name ?? '');
      return { message: p.playerUnbanned };
    },
  });
}
