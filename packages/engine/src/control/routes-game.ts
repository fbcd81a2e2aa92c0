import { badRequest } from '../errors.ts';
import { loginPlayer } from '../players/login.ts';
import { registerPlayer } from '../players/register.ts';
import { Reply, type Route } from './server.ts';

const fields = (body: unknown): { name: unknown; password: unknown } => {
  if (typeof body !== 'object' || body === null) throw badRequest('Body must be {name, password}.');
  const { name, password } = body as Record<string, unknown>;
  return { name, password };
};

/** The gateway's login page checks (or creates) a GrowID of this server through these (ADR 0026). */
export const gameRoutes: Route[] = [
  {
    method: 'POST',
    path: /^\/game\/login$/,
    handler: async (ctx, { body }) => {
      const { name, password } = fields(body);
      return loginPlayer(ctx, name, password);
    },
  },
  {
    method: 'POST',
    path: /^\/game\/register$/,
    handler: async (ctx, { body }) => {
      const { name, password } = fields(body);
      if (typeof name !== 'string' || typeof password !== 'string') throw badRequest('name and password are required.');
      const player = await registerPlayer(ctx, name, password);
      ctx.log.info(`GrowID ${player.name} created from the login page`);
      return new Reply(201, { name: player.name });
    },
  },
];
