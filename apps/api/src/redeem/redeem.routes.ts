import {
  messages,
  publicRedeemCodeListSchema,
  REDEEM_RATE_LIMIT,
  redeemMessages,
  redeemRequestSchema,
  redeemResponseSchema,
} from '@canopy/contract';
import type { FastifyInstance } from 'fastify';
import { admitAccount } from '../access/account-access.ts';
import type { AppContext } from '../context.ts';
import { route } from '../http/route.ts';
import { listPublicCodes, redeemCode } from './redeem.service.ts';

/**
 * The Redeem page's calls: the public codes as the user sees them, and redeeming a code. Both are for
 * registered, unbanned users outside maintenance (admins pass it), refused before any body is read.
 */
export function redeemRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, ctx, {
    method: 'GET',
    url: '/users/:id/public-redeem-codes',
    access: 'user',
    response: publicRedeemCodeListSchema,
    // An admin who may look up users (users:view) may see the list as another user sees it.
    admit: admitAccount(ctx, {
      self: { othersWith: 'users:view' },
      maintenance: true,
      unbanned: { message: messages.bannedPage, adminsPass: true },
    }),
    handler: ({ params }) => listPublicCodes(ctx, params.id ?? ''),
  });
  route(app, ctx, {
    method: 'POST',
    url: '/users/:id/redeem',
    access: 'user',
    response: redeemResponseSchema,
    body: redeemRequestSchema,
    // Private codes are secrets: guessing them must be slow, so attempts are counted per account.
    rateLimit: { perAccount: { rule: REDEEM_RATE_LIMIT, key: 'caller' } },
    admit: admitAccount(ctx, { self: {}, maintenance: true, unbanned: { message: redeemMessages.banned } }),
    handler: ({ caller, body }) => redeemCode(ctx, caller, body.code),
  });
}
