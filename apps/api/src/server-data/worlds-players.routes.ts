import { type Player, serverPageMessages as p, playerPutSchema, worldNameSchema } from '@canopy/contract';
import type { FastifyInstance } from 'fastify';
import type { ServerAccess } from '../access/server-access.ts';
import { logServerAction } from '../activity/server-activity.ts';
import type { AppContext } from '../context.ts';
import { PLAYER_PUT_BODY_LIMIT, WORLD_PUT_BODY_LIMIT } from '../http/body-limits.ts';
import { route } from '../http/route.ts';
import { parse } from '../validate.ts';
import { bodyBytes, engineCall, engineForward, engineWrite, onlineEngine } from './engine-proxy.ts';
import { WriteQueue } from './write-queue.ts';

const enc = encodeURIComponent;

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
    handler: async ({ server }) => engineCall(worlds(server), 'GET', '/worlds'),
  });
  route(app, ctx, {
    method: 'GET',
    url: '/users/:id/server/worlds/:name',
    access: 'user',
    server: 'worlds:manage',
    handler: async ({ server, params }) => engineCall(worlds(server), 'GET', `/worlds/${enc(params.name ?? '')}`),
  });
  // A whole world (up to about 3 MB) goes to the engine unparsed: the engine validates it with the same
  // contract schema and answers in the same words, and the api's event loop stays free (bench/hostile.ts).
  // The answer is { message } (the spec shows none): sending the world back would double the cost.
  route(app, ctx, {
    method: 'PUT',
    url: '/users/:id/server/worlds/:name',
    access: 'user',
    server: 'worlds:manage',
    rawBody: true,
    bodyLimit: WORLD_PUT_BODY_LIMIT,
    admit: ({ server, signal }) => worldWrites.enter(server.server.id, signal),
    handler: async ({ server, params, raw }) => {
      const name = parse(worldNameSchema, params.name ?? '', 'World name');
      await engineForward(ctx, server, worlds(server), {
        method: 'PUT',
        path: `/worlds/${enc(name)}?answer=brief`,
        raw,
      });
      await log(server, 'World saved', name);
      return { message: p.worldSaved };
    },
  });
  route(app, ctx, {
    method: 'DELETE',
    url: '/users/:id/server/worlds/:name',
    access: 'user',
    server: 'worlds:manage',
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
    handler: async ({ server }) => engineCall(players(server), 'GET', '/players'),
  });
  route(app, ctx, {
    method: 'GET',
    url: '/users/:id/server/players/:name',
    access: 'user',
    server: 'players:manage',
    handler: async ({ server, params }) => engineCall(players(server), 'GET', `/players/${enc(params.name ?? '')}`),
  });
  route(app, ctx, {
    method: 'PUT',
    url: '/users/:id/server/players/:name',
    access: 'user',
    server: 'players:manage',
    body: playerPutSchema,
    bodyLimit: PLAYER_PUT_BODY_LIMIT,
    handler: async ({ server, params, body, req }) => {
      const path = `/players/${enc(params.name ?? '')}`;
      const player = await engineWrite<Player>(ctx, server, players(server), {
        method: 'PUT',
        path,
        body,
        growth: bodyBytes(req),
      });
      await log(server, 'Player saved', params.name ?? '');
      return { message: p.playerSaved, player };
    },
  });
  route(app, ctx, {
    method: 'DELETE',
    url: '/users/:id/server/players/:name',
    access: 'user',
    server: 'players:manage',
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
    handler: async ({ server, params }) => {
      await engineCall(players(server), 'POST', `/players/${enc(params.name ?? '')}/unban`);
      await log(server, 'Player unbanned', params.name ?? '');
      return { message: p.playerUnbanned };
    },
  });
}
