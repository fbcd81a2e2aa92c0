import {
  createServerRequestSchema,
  messageResponseSchema,
  powerActionSchema,
  serverActionResponseSchema,
  statusResponseSchema,
} from '@canopy/contract';
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
    response: statusResponseSchema,
    handler: async () => ({ hostedServers: ctx.servers.feed() }),
  });
  route(app, ctx, {
    method: 'POST',
    url: '/users/:id/server',
    access: 'user',
    response: serverActionResponseSchema,
    status: 201,
    body: createServerRequestSchema,
    handler: ({ caller, body, params }) => createServer(ctx, caller, params.id ?? '', body.serverName),
  });
  route(app, ctx, {
    method: 'DELETE',
    url: '/users/:id/server',
    access: 'user',
    server: deleteServerAccess,
    response: messageResponseSchema,
    handler: ({ server }) => deleteServer(ctx, server),
  });
  route(app, ctx, {
    method: 'POST',
    url: '/users/:id/server/:serverId/:action',
    access: 'user',
    server: powerActionAccess,
    response: serverActionResponseSchema,
    status: 202,
    summary: 'Start, stop or restart the server (action: start | stop | restart)',
    handler: async ({ server, params }) => {
      const action = powerActionSchema.safeParse(params.action);
      if (!action.success) throw notFound(`Unknown server action '${params.action}'. Use start, stop or restart.`);
      return powerAction(ctx, server, params.serverId ?? '', action.data);
    },
  });
}
