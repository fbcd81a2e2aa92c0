import { addCollaboratorRequestSchema, updateCollaboratorRequestSchema } from '@canopy/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { route } from '../http/route.ts';
import {
  addCollaborator,
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
    handler: ({ caller, params }) => listCollaborators(ctx, caller, params.id ?? ''),
  });
  route(app, ctx, {
    method: 'GET',
    url: `${base}/validate/:discordId`,
    access: 'user',
    handler: ({ caller, params }) => validateCollaborator(ctx, caller, params.id ?? '', params.discordId ?? ''),
  });
  route(app, ctx, {
    method: 'POST',
    url: base,
    access: 'user',
    body: addCollaboratorRequestSchema,
    handler: async ({ caller, params, body, reply }) => {
      const result = await addCollaborator(ctx, caller, params.id ?? '', body.discordId, body.permissions);
      reply.code(201);
      return result;
    },
  });
  route(app, ctx, {
    method: 'PUT',
    url: `${base}/:discordId`,
    access: 'user',
    body: updateCollaboratorRequestSchema,
    handler: ({ caller, params, body }) =>
      updateCollaborator(ctx, caller, params.id ?? '', params.discordId ?? '', body.permissions),
  });
  route(app, ctx, {
    method: 'DELETE',
    url: `${base}/:discordId`,
    access: 'user',
    handler: ({ caller, params }) => removeCollaborator(ctx, caller, params.id ?? '', params.discordId ?? ''),
  });
}
