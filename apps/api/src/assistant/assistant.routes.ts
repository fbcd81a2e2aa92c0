import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';

/** Routes of this feature (issue 10): filled by its own work. */
export function assistantRoutes(_app: FastifyInstance, _ctx: AppContext) {}
