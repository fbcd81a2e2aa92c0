import {
  addCollaboratorRequestSchema,
  collaboratorListSchema,
  collaboratorValidationSchema,
  messageResponseSchema,
  updateCollaboratorRequestSchema,
} from '@canopy/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { route } from '../http/route.ts';
import {
  addCollaborator,
  collaboratorsAccess,
  listCollaborators,
  removeCollaborator,
  updateCollaborator,
  validateCollaborator,
} from './collaborators.service.ts';

/** The owner's collaborator management. */
export function collaboratorsRoutes(app: FastifyInstance, ctx: AppContext) {
  const base = '/users/:id/server/collaborators';
  route(app, ctx, {
    method: 'GET',
    url: base,
    access: 'user',
    server: collaboratorsAccess,
    response: collaboratorListSchema,
    handler: ({ server }) => listCollaborators(ctx, server),
  });
  route(app, ctx, {
    method: 'GET',
    url: `${base}/validate/:discordId`,
    access: 'user',
    server: collaboratorsAccess,
    response: collaboratorValidationSchema,
    handler: ({ server, params }) => validateCollaborator(ctx, server, params.discordId ?? ''),
  });
  route(app, ctx, {
    method: 'POST',
    url: base,
    access: 'user',
    server: collaboratorsAccess,
    response: messageResponseSchema,
    status: 201,
    body: addCollaboratorRequestSchema,
    handler: ({ server, body }) => addCollaborator(ctx, server, body.discordId, body.permissions),
  });
  route(app, ctx, {
    method: 'PUT',
    url: `${base}/:discordId`,
    access: 'user',
    server: collaboratorsAccess,
    response: messageResponseSchema,
    body: updateCollaboratorRequestSchema,
    handler: ({ server, params, body }) => updateCollaborator(ctx, server, params.discordId ?? '', body.permissions),
  });
  route(app, ctx, {
    method: 'DELETE',
    url: `${base}/:discordId`,
    access: 'user',
    server: collaboratorsAccess,
    response: messageResponseSchema,
    handler: ({ server, params }) => removeCollaborator(ctx, server, params.discordId ?? ''),
  });
}
