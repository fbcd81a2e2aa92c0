import { creditMessages as c } from '@canopy/contract';
import Stripe from 'stripe';
import { activityRepo } from '../activity/activity.repo.ts';
import type { AppContext } from '../context.ts';
import { AppError, badRequest } from '../errors.ts';
import type { WebhookOutcome } from '../metrics/metrics.ts';
import { grantCredits } from './credits.service.ts';
import { creditsFor, isRecord, type PaidSession } from './payment-amount.ts';

/** The acknowledgement of every event taken in: anything but a 2xx makes Stripe deliver it again. */
const ACK = { received: true } as const;

/** A usable id: a non-empty string without control characters (PostgreSQL cannot even compare NUL). */
const text = (value: unknown) =>
  typeof value === 'string' && value !== '' && !/\p{Cc}/u.test(value) ? value : undefined;

/**
 * The events that may credit: a checkout that completed paid, and a delayed payment method (a bank debit)
 * whose checkout completed unpaid and whose payment succeeded later. Each still needs payment_status 'paid'.
 */
const CREDITING_EVENTS = new Set(['checkout.session.completed', 'checkout.session.async_payment_succeeded']);

/** The apis whose operator was told why payments are off (once each: the public answer names no setting). */
const toldUnconfigured = new WeakSet<AppContext>();

/** 503 before the body is read when the operator has not configured payments. */
export function assertPaymentsConfigured(ctx: AppContext): string {
  const secret = ctx.config.stripeWebhookSecret;
  if (secret) return secret;
  ctx.metrics.webhook('unconfigured');
  if (!toldUnconfigured.has(ctx)) {
    toldUnconfigured.add(ctx);
    ctx.log.warn('Stripe webhook called, but STRIPE_WEBHOOK_SECRET is not set: answering 503');
  }
  throw new AppError(503, 'payments_unconfigured', c.paymentsUnconfigured);
}

/** What an admin needs to settle a payment by hand. */
interface Uncredited {
  eventId: string;
  session: PaidSession;
  userId?: string;
  reason: string;
}

/**
 * A paid session that credits nothing is money taken and not given: an error in the log and an entry in
 * the admin panel's activity log. Stripe's retries could not change it, so the event is still acknowledged.
 */
async function reportUncredited(ctx: AppContext, u: Uncredited) {
  // client_reference_id can be the buyer's own text (a Payment Link's URL): no control or bidi characters.
  const shown = (v: unknown) =>
    String(v ?? '-')
      .replace(/[\p{Cc}\u202a-\u202e\u2066-\u2069]/gu, '')
      .slice(0, 100);
  const details =
    `event ${shown(u.eventId)}, session ${shown(u.session.id)}, ` +
    `${shown(u.session.amount_total)} ${shown(u.session.currency)}, account ${shown(u.userId)}: ${u.reason}`;
  ctx.log.error({ stripeEvent: u.eventId, details }, 'stripe payment not credited');
  try {
    await activityRepo.add(
      ctx.db,
      { action: 'Payment not credited', actorType: 'System', actorName: 'Stripe', details },
      ctx.now(),
    );
  } catch (error) {
    ctx.log.error({ err: error, details }, 'activity log entry for an uncredited payment could not be written');
  }
}

/**
 * POST /payments/stripe/webhook. The signature is checked with Stripe's own verifier over the exact bytes
 * received (and their age against the api's clock); then a paid checkout session (completed, or its delayed
 * payment succeeded) credits the account named by client_reference_id (or metadata.discordId) once per
 * Checkout Session, whichever of its events arrives. Anything else is acknowledged, since a non-2xx would
 * only make Stripe retry an event that can never apply; a paid one is reported (reportUncredited).
 */
export async function handleStripeWebhook(
  ctx: AppContext,
  raw: Buffer | undefined,
  signature: string | string[] | undefined,
): Promise<typeof ACK> {
  try {
    ctx.metrics.webhook(await takeEvent(ctx, raw, signature));
    return ACK;
  } catch (error) {
    const code = error instanceof AppError ? error.code : undefined;
    // Unconfigured was counted where it was refused (assertPaymentsConfigured).
    if (code !== 'payments_unconfigured') ctx.metrics.webhook(code === 'bad_signature' ? 'bad_signature' : 'error');
    throw error;
  }
}

/** Verifies and applies one event (see handleStripeWebhook); says what became of it. */
async function takeEvent(
  ctx: AppContext,
  raw: Buffer | undefined,
  signature: string | string[] | undefined,
): Promise<WebhookOutcome> {
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
    return 'ignored';
  }
  // Read as unknown JSON, whatever Stripe's types promise (see PaidSession).
  const data: unknown = event.data;
  const object = isRecord(data) ? data.object : undefined;
  const session: PaidSession = isRecord(object) ? object : {};
  if (session.payment_status !== 'paid') {
    log.info({ paymentStatus: session.payment_status }, 'stripe checkout ignored: not paid');
    return 'ignored';
  }
  const eventId = String(event.id);
  const userId =
    text(session.client_reference_id) ?? (isRecord(session.metadata) ? text(session.metadata.discordId) : undefined);
  const sessionId = text(session.id);
  const worth = creditsFor(session, { rate: ctx.config.creditsPerCurrencyUnit, currency: ctx.config.paymentCurrency });
  const refusal = !sessionId
    ? 'the session has no id to credit it once under'
    : !userId
      ? 'no account id (client_reference_id or metadata.discordId)'
      : worth.reason;
  if (refusal || !sessionId || !userId) {
    await reportUncredited(ctx, { eventId, session, userId, reason: refusal ?? 'nothing to credit' });
    return 'uncredited';
  }
  try {
    // Keyed on the session: its completed and async_payment_succeeded events can never both credit it.
    const grant = { reason: 'payment', actor: 'stripe', externalRef: `stripe:${sessionId}` };
    const result = await grantCredits(ctx.db, userId, worth.credits, grant, ctx.now());
    if (result.status === 'duplicate') {
      log.info({ sessionId }, 'stripe checkout already credited: ignored');
      return 'duplicate';
    }
    log.info({ userId, credits: worth.credits, balance: result.balance }, 'stripe payment credited');
    return 'credited';
  } catch (error) {
    // An unknown account, an absurd amount or a full balance: retrying within Stripe's days would not help.
    if (!(error instanceof AppError) || ![400, 404, 409].includes(error.status)) throw error;
    const reason = error.status === 404 ? 'no account has this id' : error.message;
    await reportUncredited(ctx, { eventId, session, userId, reason });
    return 'uncredited';
  }
}
