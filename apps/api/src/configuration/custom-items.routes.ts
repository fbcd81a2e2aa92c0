import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';

/** Configuration: custom items and custom textures (server-management document, section 7). */
export function customItemsRoutes(_app: FastifyInstance, _ctx: AppContext) {}
