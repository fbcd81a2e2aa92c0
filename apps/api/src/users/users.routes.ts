import { profileResponseSchema, registerRequestSchema, registerResponseSchema } from '@canopy/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { route } from '../http/route.ts';
import { getProfile, registerGrowId } from './users.service.ts';

/** Registration and the profile call. */
export function usersRoutes(app: FastifyInstance, ctx: AppContext) {
  const { windowMs, perIp, perAccount } = ctx.config.authRateLimit;
  route(app, ctx, {
    method: 'POST',
    url: '/register',
    access: 'user',
    response: registerResponseSchema,
    status: 201,
    body: registerRequestSchema,
    // GrowIDs are first come, first served: no one may probe them in bulk, per address or per account.
    rateLimit: {
      perIp: { max: perIp, windowMs },
      perAccount: { rule: { max: perAccount, windowMs }, key: 'caller' },
    },
    handler: ({ caller, body }) => registerGrowId(ctx, caller, body),
  });
  route(app, ctx, {
    method: 'GET',
    url: '/users/:id/profile',
    access: 'user',
    response: profileResponseSchema,
    handler: ({ caller, params }) => getProfile(ctx, caller, params.id ?? ''),
  });
}
