import { REDEEM_RATE_LIMIT, redeemRequestSchema } from '@canopy/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { route } from '../http/route.ts';
import { listPublicCodes, redeemCode } from './redeem.service.ts';

/** The Redeem page's calls: the public codes as the user sees them, and redeeming a code. */
export function redeemRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, ctx, {
    method: 'GET',
    url: '/users/:id/public-redeem-codes',
    access: 'user',
    handler: ({ caller, params }) => listPublicCodes(ctx, caller, params.id ?? ''),
  });
  route(app, ctx, {
    method: 'POST',
    url: '/users/:id/redeem',
    access: 'user',
    body: redeemRequestSchema,
    // Private codes are secrets: guessing them must be slow, so attempts are counted per account.
    rateLimit: { perAccount: { rule: REDEEM_RATE_LIMIT, key: 'caller' } },
    handler: ({ caller, params, body }) => redeemCode(ctx, caller, params.id ?? '', body.code),
  });
}
