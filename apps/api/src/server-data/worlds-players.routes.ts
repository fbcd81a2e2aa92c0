import { type Player, serverPageMessages as p, playerPutSchema, type World, worldPutSchema } from '@canopy/contract';
import type { FastifyInstance } from 'fastify';
import { accessServer } from '../access/server-access.ts';
import { activityRepo } from '../activity/activity.repo.ts';
import type { Caller } from '../auth/guard.ts';
import type { AppContext } from '../context.ts';
import { route } from '../http/route.ts';
import { engineCall, onlineEngine } from './engine-proxy.ts';

const enc = encodeURIComponent;

/** Worlds and players of the caller's running server, served from its engine's control API. */
export function worldsPlayersRoutes(app: FastifyInstance, ctx: AppContext) {
  const worlds = async (caller: Caller, id: string) => {
    const access = await accessServer(ctx, caller, id, 'worlds:manage');
    return { access, engine: onlineEngine(ctx, access.server, p.worldsOffline) };
  };
  const players = async (caller: Caller, id: string) => {
    const access = await accessServer(ctx, caller, id, 'players:manage');
    return { access, engine: onlineEngine(ctx, access.server, p.playersOffline) };
  };
  const log = (caller: Caller, action: string, details: string) =>
    activityRepo.add(
      ctx.db,
      {
        action,
        actorType: caller.user.is_admin === 1 ? 'Admin' : 'User',
        actorName: caller.user.grow_id ?? caller.user.username,
        details,
      },
      ctx.now(),
    );

  route(app, ctx, {
    method: 'GET',
    url: '/users/:id/server/worlds',
    access: 'user',
    handler: async ({ caller, params }) => engineCall((await worlds(caller, params.id ?? '')).engine, 'GET', '/worlds'),
  });
  route(app, ctx, {
    method: 'GET',
    url: '/users/:id/server/worlds/:name',
    access: 'user',
    handler: async ({ caller, params }) =>
      engineCall((await worlds(caller, params.id ?? '')).engine, 'GET', `/worlds/${enc(params.name ?? '')}`),
  });
  route(app, ctx, {
    method: 'PUT',
    url: '/users/:id/server/worlds/:name',
    access: 'user',
    body: worldPutSchema,
    bodyLimit: 16 * 1024 * 1024, // a whole world with every block (up to 200x200)
    handler: async ({ caller, params, body }) => {
      const { access, engine } = await worlds(caller, params.id ?? '');
      const world = await engineCall<World>(engine, 'PUT', `/worlds/${enc(params.name ?? '')}`, body);
      await log(caller, 'World saved', `${access.server.name}: ${world.name}`);
      return { message: p.worldSaved, world };
    },
  });
  route(app, ctx, {
    method: 'DELETE',
    url: '/users/:id/server/worlds/:name',
    access: 'user',
    handler: async ({ caller, params }) => {
      const { access, engine } = await worlds(caller, params.id ?? '');
      await engineCall(engine, 'DELETE', `/worlds/${enc(params.name ?? '')}`);
      await log(caller, 'World deleted', `${access.server.name}: ${params.name}`);
      return { message: p.worldDeleted };
    },
  });

  route(app, ctx, {
    method: 'GET',
    url: '/users/:id/server/players',
    access: 'user',
    handler: async ({ caller, params }) =>
      engineCall((await players(caller, params.id ?? '')).engine, 'GET', '/players'),
  });
  route(app, ctx, {
    method: 'GET',
    url: '/users/:id/server/players/:name',
    access: 'user',
    handler: async ({ caller, params }) =>
      engineCall((await players(caller, params.id ?? '')).engine, 'GET', `/players/${enc(params.name ?? '')}`),
  });
  route(app, ctx, {
    method: 'PUT',
    url: '/users/:id/server/players/:name',
    access: 'user',
    body: playerPutSchema,
    handler: async ({ caller, params, body }) => {
      const { access, engine } = await players(caller, params.id ?? '');
      const player = await engineCall<Player>(engine, 'PUT', `/players/${enc(params.name ?? '')}`, body);
      await log(caller, 'Player saved', `${access.server.name}: ${params.name}`);
      return { message: p.playerSaved, player };
    },
  });
  route(app, ctx, {
    method: 'DELETE',
    url: '/users/:id/server/players/:name',
    access: 'user',
    handler: async ({ caller, params }) => {
      const { access, engine } = await players(caller, params.id ?? '');
      await engineCall(engine, 'DELETE', `/players/${enc(params.name ?? '')}`);
      await log(caller, 'Player banned', `${access.server.name}: ${params.name}`);
      return { message: p.playerBanned };
    },
  });
}
