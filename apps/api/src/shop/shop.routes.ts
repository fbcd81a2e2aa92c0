import {
  CHECKOUT_RATE_LIMIT,
  checkoutRequestSchema,
  checkoutResponseSchema,
  messages,
  shopItemsSchema,
} from '@canopy/contract';
import type { FastifyInstance } from 'fastify';
import { admitAccount } from '../access/account-access.ts';
import type { AppContext } from '../context.ts';
import { route } from '../http/route.ts';
import { assertNotCollaborator, checkout, listShopItems } from './shop.service.ts';

/** Renew & Shop (spec 2.9 and 7): every refusal that does not depend on a cart happens before a body is read. */
export function shopRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, ctx, {
    method: 'GET',
    url: '/shop/items',
    access: 'user',
    response: shopItemsSchema,
    // Like the page; the catalogue stays readable while the shop is disabled.
    admit: admitAccount(ctx, { maintenance: true }),
    handler: ({ caller }) => listShopItems(ctx, caller),
  });
  route(app, ctx, {
    method: 'POST',
    url: '/users/:id/shop/checkout',
    access: 'user',
    response: checkoutResponseSchema,
    body: checkoutRequestSchema,
    rateLimit: { perAccount: { rule: CHECKOUT_RATE_LIMIT, key: 'caller' } },
    admit: admitAccount(
      ctx,
      { self: {}, maintenance: true, unbanned: { message: messages.bannedPage }, feature: 'disableShop' },
      (caller) => assertNotCollaborator(ctx, caller),
    ),
    handler: ({ caller, body }) => checkout(ctx, caller.user, body.cart),
  });
}
