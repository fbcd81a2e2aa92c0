import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';

/** Configuration: creator list, autofarm delay and newbie kit (server-management document, section 7). */
export function configRoutes(_app: FastifyInstance, _ctx: AppContext) {}
