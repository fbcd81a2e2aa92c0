import { creditMessages as c } from '@canopy/contract';
import Stripe from 'stripe';
import type { AppContext } from '../context.ts';
import { AppError, badRequest } from '../errors.ts';
import { grantCredits } from './credits.service.ts';

/** The acknowledgement of every event taken in: anything but a 2xx makes Stripe deliver it again. */
const ACK = { received: true } as const;

/**
 * The fields of a Checkout Session this seam reads (the rest of Stripe's object is ignored). Typed
 * `unknown`: they are read from signed JSON, and a field of another shape must be ignored, not throw
 * (a 500 only makes Stripe deliver the same event again).
 */
interface PaidSession {
  payment_status?: unknown;
  client_reference_id?: unknown;
  amount_total?: unknown;
  metadata?: unknown;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
/** A usable id: a non-empty string without control characters (PostgreSQL cannot even compare NUL). */
const text = (value: unknown) =>
  typeof value === 'string' && value !== '' && !/\p{Cc}/u.test(value) ? value : undefined;

/**
 * The events that may credit: a checkout that completed paid, and a delayed payment method (a bank debit)
 * whose checkout completed unpaid and whose payment succeeded later. Each still needs payment_status 'paid'.
 */
const CREDITING_EVENTS = new Set(['checkout.session.completed', 'checkout.session.async_payment_succeeded']);

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
  const named = isRecord(session.metadata) ? session.metadata.credits : undefined;
  if (typeof named === 'string' && /^\d{1,9}$/.test(named.trim())) return Number(named.trim());
  const paid = session.amount_total;
  if (typeof paid !== 'number' || !Number.isSafeInteger(paid) || paid <= 0) return 0;
  return Math.floor((paid / 100) * creditsPerCurrencyUnit);
}

/**
 * POST /payments/stripe/webhook. The signature is checked with Stripe's own verifier over the exact bytes
 * received (and their age against the api's clock); then a paid checkout session (completed, or its delayed
 * payment succeeded) credits the account named by client_reference_id (or metadata.discordId) once per
 * event id. Anything else is acknowledged and logged, since a non-2xx would only make Stripe retry an
 * event that can never apply.
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
  if (!CREDITING_EVENTS.has(event.type)) {
    log.info('stripe event ignored: not a completed checkout');
    return ACK;
  }
  // Read as unknown JSON, whatever Stripe's types promise (see PaidSession).
  const data: unknown = event.data;
  const object = isRecord(data) ? data.object : undefined;
  const session: PaidSession = isRecord(object) ? object : {};
  if (typeof event.id !== 'string' || event.id === '') {
    log.warn('stripe checkout ignored: the event has no id to credit it once under');
    return ACK;
  }
  if (session.payment_status !== 'paid') {
    log.info({ paymentStatus: session.payment_status }, 'stripe checkout ignored: not paid');
    return ACK;
  }
  const userId =
    text(session.client_reference_id) ?? (isRecord(session.metadata) ? text(session.metadata.discordId) : undefined);
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
