import {
  adminCreditPacksSchema,
  CREDIT_CHECKOUT_RATE_LIMIT,
  CREDIT_HISTORY_PAGE_SIZE,
  creditCheckoutRequestSchema,
  creditCheckoutResponseSchema,
  creditHistoryQuerySchema,
  creditHistorySchema,
  creditOfferSchema,
  creditPackIdParamsSchema,
  creditPackInputSchema,
  creditPackSaveResponseSchema,
  creditsHowToRequestSchema,
  creditsHowToResponseSchema,
  hasAdminPermission,
  IDEMPOTENCY_KEY_HEADER,
  messages,
} from '@canopy/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { admitAccount } from '../access/account-access.ts';
import { adminRoute } from '../admin/admin-route.ts';
import type { AppContext } from '../context.ts';
import { forbidden } from '../errors.ts';
import { callerOf, route } from '../http/route.ts';
import { publicBase, requestOrigin } from '../setup-guide/setup-guide.service.ts';
import { adminCaller } from '../users/profile.ts';
import { parse } from '../validate.ts';
import { creditPacksRepo } from './credit-packs.repo.ts';
import {
  adminCreditPacks,
  createPack,
  creditOffer,
  saveHowTo,
  startCreditCheckout,
  updatePack,
} from './credit-packs.service.ts';

/** Buying credits in the panel (issue 24): the operator's packs, the Stripe checkout and the credit history. */
export function creditPackRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, ctx, {
    method: 'GET',
    url: '/credits/offer',
    access: 'user',
    response: creditOfferSchema,
    summary: 'What Renew & Shop offers to buy credits: the packs on sale with Stripe, else the operator text',
    handler: () => creditOffer(ctx),
  });
  route(app, ctx, {
    method: 'POST',
    url: '/users/:id/credits/checkout',
    access: 'user',
    response: creditCheckoutResponseSchema,
    body: creditCheckoutRequestSchema,
    summary: 'Opens a Stripe Checkout Session for a credit pack; the answer names the URL to send the buyer to',
    // Each call opens a session at Stripe: a person tries a few packs, a loop is cut off.
    rateLimit: { perAccount: { rule: CREDIT_CHECKOUT_RATE_LIMIT, key: 'caller' } },
    admit: admitAccount(ctx, { self: {}, maintenance: true, unbanned: { message: messages.bannedPage } }),
    handler: ({ caller, body, req }) => {
      const key = req.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()];
      const base = publicBase(ctx.config.publicUrl, requestOrigin(req));
      return startCreditCheckout(ctx, caller.user, body.packId, base, typeof key === 'string' ? key : undefined);
    },
  });
  route(app, ctx, {
    method: 'GET',
    url: '/users/:id/credit-history',
    access: 'user',
    response: creditHistorySchema,
    query: creditHistoryQuerySchema,
    summary: "A user's credit changes, newest first (their own; an admin with users:view sees anyone's)",
    admit: admitHistory(ctx),
    handler: async ({ params, query }) => {
      const pageSize = CREDIT_HISTORY_PAGE_SIZE;
      const page = await creditPacksRepo.history(ctx.db, params.id ?? '', pageSize, (query.page - 1) * pageSize);
      return { ...page, page: query.page, pageSize };
    },
  });
  adminRoute(app, ctx, {
    method: 'GET',
    url: '/admin/credit-packs',
    access: { admin: 'settings:view' },
    response: adminCreditPacksSchema,
    handler: () => adminCreditPacks(ctx),
  });
  adminRoute(app, ctx, {
    method: 'POST',
    url: '/admin/credit-packs',
    access: { admin: 'settings:manage' },
    status: 201,
    response: creditPackSaveResponseSchema,
    body: creditPackInputSchema,
    handler: ({ caller, body }) => createPack(ctx, caller.user, body),
  });
  adminRoute(app, ctx, {
    method: 'PUT',
    url: '/admin/credit-packs/how-to',
    access: { admin: 'settings:manage' },
    response: creditsHowToResponseSchema,
    body: creditsHowToRequestSchema,
    handler: ({ caller, body }) => saveHowTo(ctx, caller.user, body.howTo),
  });
  adminRoute(app, ctx, {
    method: 'PUT',
    url: '/admin/credit-packs/:packId',
    access: { admin: 'settings:manage' },
    response: creditPackSaveResponseSchema,
    body: creditPackInputSchema,
    handler: ({ caller, body, params }) =>
      updatePack(ctx, caller.user, parse(creditPackIdParamsSchema, params, 'Path').packId, body),
  });
}

/**
 * The history's check: one's own as an account page (registered), anyone's for an admin holding users:view,
 * whether or not the admin registered a GrowID (the admin panel does not ask for one).
 */
function admitHistory(ctx: AppContext) {
  const own = admitAccount(ctx, {});
  return async ({ req }: { req: FastifyRequest }) => {
    const caller = callerOf(req);
    const id = (req.params as { id?: string }).id;
    if (caller && id !== caller.user.id) {
      if (!hasAdminPermission(adminCaller(caller.user), 'users:view'))
        throw forbidden(messages.missingPermission, 'not_your_account');
      return () => {};
    }
    return own({ req });
  };
}
