import { createServerRequestSchema, powerActionSchema } from '@canopy/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { route } from '../http/route.ts';
import { createServer, deleteServer, deleteServerAccess, powerAction, powerActionAccess } from './servers.service.ts';

/** Server creation, deletion and power actions, and the public status feed. */
export function serversRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, ctx, {
    method: 'GET',
    url: '/status',
    access: 'public',
    handler: async () => ({ hostedServers: ctx.servers.feed() }),
  });
  route(app, ctx, {
    method: 'POST',
    url: '/users/:id/server',
    access: 'user',
    body: createServerRequestSchema,
    handler: async ({ caller, body, params, reply }) => {
      const result = await createServer(ctx, caller, params.id ?? '', body.serverName);
      reply.code(201);
      return result;
    },
  });
  route(app, ctx, {
    method: 'DELETE',
    url: '/users/:id/server',
    access: 'user',
    server: deleteServerAccess,
    handler: ({ server }) => deleteServer(ctx, server),
  });
  route(app, ctx, {
    method: 'POST',
    url: '/users/:id/server/:serverId/:action',
    access: 'user',
    server: powerActionAccess,
    handler: async ({ server, params, reply }) => {
      const action = powerActionSchema.safeParse(params.action);
      if (!action.success) throw notFound(`Unknown server action '${params.action}'. Use start, stop or restart.`);
      const result = await powerAction(ctx, server, params.serverId ?? '', action.data);
      reply.code(202);
      return result;
    },
  });
}
