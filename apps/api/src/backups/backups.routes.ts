import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';

/** The Backup Manager's calls (server-management document, section 7). */
export function backupRoutes(_app: FastifyInstance, _ctx: AppContext) {}
