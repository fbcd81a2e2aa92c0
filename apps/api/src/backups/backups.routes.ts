import { backupStatusSchema, messageResponseSchema } from '@canopy/contract';
import type { FastifyInstance } from 'fastify';
import type { ServerAccess } from '../access/server-access.ts';
import type { AppContext } from '../context.ts';
import { route } from '../http/route.ts';
import { assertEnabled, backupStatus, createBackup, deleteBackup, restoreBackup } from './backups.service.ts';
import { reconcileBackups } from './reconcile.ts';

/**
 * The Backup Manager's calls (server-management document, section 7). They act on the account of the
 * server's owner: a collaborator holding backups:manage manages the owner's one backup. The static
 * `backup/restore` path wins over the power-action route `/:serverId/:action`, and a server named
 * `backup` still reaches its power actions (the router falls back to the parametric route).
 */
export function backupRoutes(app: FastifyInstance, ctx: AppContext) {
  // A locked Backup Manager refuses before a byte of whatever body was sent is read (the handlers check again).
  const gate = async ({ server }: { server: ServerAccess }) => {
    assertEnabled(server);
    return () => {};
  };
  // Before the api listens, so before engines start: what a crash left half-done is resolved first.
  app.addHook('onReady', () => reconcileBackups(ctx));

  route(app, ctx, {
    method: 'GET',
    url: '/users/:id/server/backup',
    access: 'user',
    server: 'backups:manage',
    response: backupStatusSchema,
    admit: gate,
    handler: ({ server }) => backupStatus(ctx, server),
  });
  route(app, ctx, {
    method: 'POST',
    url: '/users/:id/server/backup',
    access: 'user',
    server: 'backups:manage',
    response: messageResponseSchema,
    admit: gate,
    handler: ({ server }) => createBackup(ctx, server),
  });
  route(app, ctx, {
    method: 'DELETE',
    url: '/users/:id/server/backup',
    access: 'user',
    server: 'backups:manage',
    response: messageResponseSchema,
    admit: gate,
    handler: ({ server }) => deleteBackup(ctx, server),
  });
  route(app, ctx, {
    method: 'POST',
    url: '/users/:id/server/backup/restore',
    access: 'user',
    server: 'backups:manage',
    response: messageResponseSchema,
    admit: gate,
    handler: ({ server }) => restoreBackup(ctx, server),
  });
}
