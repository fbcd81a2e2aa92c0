import { creditMessages as c } from '@canopy/contract';
import Stripe from 'stripe';
import type { AppContext } from '../context.ts';
import { AppError, badRequest } from '../errors.ts';
import { grantCredits } from './credits.service.ts';

/** The acknowledgement of every event taken in: anything but a 2xx makes Stripe deliver it again. */
const ACK = { received: true } as const;

/** The fields of a Checkout Session this seam reads (the rest of Stripe's object is ignored). */
interface PaidSession {
  payment_status?: string | null;
  client_reference_id?: string | null;
  amount_total?: number | null;
  metadata?: Record<string, string> | null;
}

/** 503 before the body is read when the operator has not configured payments. */
export function assertPaymentsConfigured(ctx: AppContext): string {
  const secret = ctx.config.stripeWebhookSecret;
  if (!secret) throw new AppError(503, 'payments_unconfigured', c.paymentsUnconfigured);
  return secret;
}

/**
 * Credits a Checkout Session's buyer: `metadata.credits` when the operator's checkout set it (a whole
 * number), else the amount paid (in the currency's minor unit) times the configured rate.
 */
export function creditsFor(session: PaidSession, creditsPerCurrencyUnit: number): number {
  const named = session.metadata?.credits;
  if (named !== undefined && /^\d{1,9}$/.test(named.trim())) return Number(named.trim());
  return Math.floor(((session.amount_total ?? 0) / 100) * creditsPerCurrencyUnit);
}

/**
 * POST /payments/stripe/webhook. The signature is checked with Stripe's own verifier over the exact bytes
 * received (and their age against the api's clock); then a paid checkout.session.completed credits the
 * account named by client_reference_id (or metadata.discordId) once per event id. Anything else is
 * acknowledged and logged, since a non-2xx would only make Stripe retry an event that can never apply.
 */
export async function handleStripeWebhook(
  ctx: AppContext,
  raw: Buffer | undefined,
  signature: string | string[] | undefined,
): Promise<typeof ACK> {
  const secret = assertPaymentsConfigured(ctx);
  if (!raw || typeof signature !== 'string') throw badRequest(c.badSignature, 'bad_signature');
  let event: Stripe.Event;
  try {
    event = Stripe.webhooks.constructEvent(raw, signature, secret, undefined, undefined, ctx.now());
  } catch {
    throw badRequest(c.badSignature, 'bad_signature');
  }
  const log = ctx.log.child({ stripeEvent: event.id, type: event.type });
  if (event.type !== 'checkout.session.completed') {
    log.info('stripe event ignored: not a completed checkout');
    return ACK;
  }
  const session = event.data.object as PaidSession;
  if (session.payment_status !== 'paid') {
    log.info({ paymentStatus: session.payment_status }, 'stripe checkout ignored: not paid');
    return ACK;
  }
  const userId = session.client_reference_id || session.metadata?.discordId;
  const credits = creditsFor(session, ctx.config.creditsPerCurrencyUnit);
  if (!userId || credits <= 0) {
    log.warn({ userId, credits }, 'stripe checkout ignored: no account or no credits in it');
    return ACK;
  }
  try {
    const result = await grantCredits(
      ctx.db,
      userId,
      credits,
      { reason: 'payment', actor: 'stripe', externalRef: `stripe:${event.id}` },
      ctx.now(),
    );
    if (result.status === 'duplicate') log.info('stripe event already credited: ignored');
    else log.info({ userId, credits, balance: result.balance }, 'stripe payment credited');
  } catch (error) {
    // An unknown account or an absurd amount never becomes creditable: retrying it would change nothing.
    if (!(error instanceof AppError) || (error.status !== 404 && error.status !== 400)) throw error;
    log.warn({ userId, credits, reason: error.message }, 'stripe payment not credited');
  }
  return ACK;
}
