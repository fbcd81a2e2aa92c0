import { STRIPE_WEBHOOK_BODY_LIMIT, stripeEventSchema, WEBHOOK_RATE_LIMIT, webhookAckSchema } from '@canopy/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { route } from '../http/route.ts';
import { creditPackRoutes } from './credit-packs.routes.ts';
import { assertPaymentsConfigured, handleStripeWebhook } from './stripe-webhook.ts';

/** The payment seam: Stripe's signed events credit accounts; the credit packs a user buys them with. */
export function paymentsRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, ctx, {
    method: 'POST',
    url: '/payments/stripe/webhook',
    access: 'public',
    response: webhookAckSchema,
    summary: 'Stripe webhook: a Stripe event, verified by its Stripe-Signature header',
    // Stripe signs the exact bytes: they must reach the verifier unparsed.
    rawBody: true,
    describedBody: stripeEventSchema,
    bodyLimit: STRIPE_WEBHOOK_BODY_LIMIT,
    rateLimit: { perIp: WEBHOOK_RATE_LIMIT },
    // Unconfigured: refused before the body is read.
    admit: async () => {
      assertPaymentsConfigured(ctx);
      return () => {};
    },
    handler: ({ raw, req }) => handleStripeWebhook(ctx, raw, req.headers['stripe-signature']),
  });
  creditPackRoutes(app, ctx);
}
