import {
  messageResponseSchema,
  scheduleInputSchema,
  scheduleListSchema,
  scheduleResponseSchema,
} from '@canopy/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { route } from '../http/route.ts';
import { createSchedule, deleteSchedule, listSchedules, updateSchedule } from './schedules.service.ts';

/**
 * A server's schedules (ADR 0052): the owner, or a collaborator holding server:actions, since a schedule restarts
 * the server, speaks to its players and takes its backup on their behalf. The static `schedules` segment wins over
 * the power-action route `/:serverId/:action`, which is POST only, and the writes here are PUT and DELETE.
 */
export function schedulesRoutes(app: FastifyInstance, ctx: AppContext) {
  const base = '/users/:id/server/schedules';
  route(app, ctx, {
    method: 'GET',
    url: base,
    access: 'user',
    server: 'server:actions',
    response: scheduleListSchema,
    handler: ({ server }) => listSchedules(ctx, server),
  });
  route(app, ctx, {
    method: 'POST',
    url: base,
    access: 'user',
    server: 'server:actions',
    body: scheduleInputSchema,
    response: scheduleResponseSchema,
    status: 201,
    handler: ({ server, body }) => createSchedule(ctx, server, body),
  });
  route(app, ctx, {
    method: 'PUT',
    url: `${base}/:scheduleId`,
    access: 'user',
    server: 'server:actions',
    body: scheduleInputSchema,
    response: scheduleResponseSchema,
    handler: ({ server, params, body }) => updateSchedule(ctx, server, params.scheduleId ?? '', body),
  });
  route(app, ctx, {
    method: 'DELETE',
    url: `${base}/:scheduleId`,
    access: 'user',
    server: 'server:actions',
    response: messageResponseSchema,
    handler: ({ server, params }) => deleteSchedule(ctx, server, params.scheduleId ?? ''),
  });
}
