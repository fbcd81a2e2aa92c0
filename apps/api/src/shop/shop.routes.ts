import { checkoutRequestSchema } from '@canopy/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { callerOf, route } from '../http/route.ts';
import { paymentsRoutes } from '../payments/payments.routes.ts';
import { assertMayShop, checkout, listShopItems } from './shop.service.ts';

/** Checkouts per user per minute: a person clicks a few times; scripts hammering the debit are cut off. */
export const CHECKOUT_RATE_LIMIT = { max: 30, windowMs: 60_000 };

/** Renew & Shop (spec 2.9 and 7), and the payment webhook that fills the balance it spends. */
export function shopRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, ctx, {
    method: 'GET',
    url: '/shop/items',
    access: 'user',
    handler: ({ caller }) => listShopItems(ctx, caller),
  });
  route(app, ctx, {
    method: 'POST',
    url: '/users/:id/shop/checkout',
    access: 'user',
    body: checkoutRequestSchema,
    rateLimit: { perAccount: { rule: CHECKOUT_RATE_LIMIT, key: 'caller' } },
    // Every refusal that does not depend on the cart happens before its bytes are read.
    admit: async ({ req }) => {
      const caller = callerOf(req);
      if (caller) await assertMayShop(ctx, caller, (req.params as { id?: string }).id ?? '');
      return () => {};
    },
    handler: ({ caller, body }) => checkout(ctx, caller.user, body.cart),
  });
  paymentsRoutes(app, ctx);
}
