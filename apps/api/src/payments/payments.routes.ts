import { STRIPE_WEBHOOK_BODY_LIMIT } from '@canopy/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { route } from '../http/route.ts';
import { assertPaymentsConfigured, handleStripeWebhook } from './stripe-webhook.ts';

/** Stripe's deliveries come from a handful of addresses; a flood from one address is not Stripe. */
export const WEBHOOK_RATE_LIMIT = { max: 300, windowMs: 60_000 };

/** The payment seam: Stripe's signed events credit accounts (registered by shopRoutes). */
export function paymentsRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, ctx, {
    method: 'POST',
    url: '/payments/stripe/webhook',
    access: 'public',
    // Stripe signs the exact bytes: they must reach the verifier unparsed.
    rawBody: true,
    bodyLimit: STRIPE_WEBHOOK_BODY_LIMIT,
    rateLimit: { perIp: WEBHOOK_RATE_LIMIT },
    // Unconfigured: refused before the body is read.
    admit: async () => {
      assertPaymentsConfigured(ctx);
      return () => {};
    },
    handler: ({ raw, req }) => handleStripeWebhook(ctx, raw, req.headers['stripe-signature']),
  });
}
