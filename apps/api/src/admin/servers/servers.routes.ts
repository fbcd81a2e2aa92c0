import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';

/** Admin routes of this part (issue 11): filled by its own work. */
export function adminServersRoutes(_app: FastifyInstance, _ctx: AppContext) {}
