import { createHash } from 'node:crypto';
import { type CreditPack, creditPackMessages as m } from '@canopy/contract';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';

/** How long Stripe gets to open a session before the buyer is told to try again. */
const STRIPE_TIMEOUT_MS = 15_000;

/** What the panel needs to send a buyer to Stripe. */
export interface CheckoutRequest {
  pack: CreditPack;
  /** The buyer's Discord id: the webhook credits client_reference_id. */
  userId: string;
  /** Absolute URLs of the page the buyer comes back to. */
  successUrl: string;
  cancelUrl: string;
  /** The caller's Idempotency-Key, when sent: forwarded (scoped to the user) so a retry reuses Stripe's session. */
  idempotencyKey?: string;
}

/**
 * Creates a Stripe Checkout Session (POST /v1/checkout/sessions, form-encoded, docs.stripe.com/api/checkout/sessions/
 * create) for one pack: mode payment, the pack's price as inline price_data, metadata.credits for the webhook
 * (payment-amount.ts reads it before any amount). A plain fetch instead of the stripe package's client: one call,
 * and the package's client would be loaded at start for it. Any failure is a 502 with a text for the buyer; the
 * details go to the log.
 */
export async function createCheckoutSession(
  ctx: AppContext,
  secretKey: string,
  req: CheckoutRequest,
): Promise<{ id: string; url: string }> {
  const form = new URLSearchParams({
    mode: 'payment',
    client_reference_id: req.userId,
    success_url: req.successUrl,
    cancel_url: req.cancelUrl,
    'metadata[credits]': String(req.pack.credits),
    'metadata[packId]': req.pack.id,
    'line_items[0][quantity]': '1',
    'line_items[0][price_data][currency]': req.pack.currency,
    'line_items[0][price_data][unit_amount]': String(req.pack.price),
    'line_items[0][price_data][product_data][name]': req.pack.name,
  });
  const headers: Record<string, string> = {
    authorization: `Bearer ${secretKey}`,
    'content-type': 'application/x-www-form-urlencoded',
  };
  if (req.idempotencyKey)
    headers['idempotency-key'] = createHash('sha256').update(`${req.userId}\n${req.idempotencyKey}`).digest('hex');
  let body: unknown;
  try {
    const res = await fetch(`${ctx.config.stripeApiUrl}/v1/checkout/sessions`, {
      method: 'POST',
      headers,
      body: form,
      signal: AbortSignal.timeout(STRIPE_TIMEOUT_MS),
    });
    body = await res.json().catch(() => undefined);
    if (!res.ok) throw new Error(`Stripe answered ${res.status}: ${JSON.stringify(body).slice(0, 500)}`);
  } catch (error) {
    ctx.log.error({ err: error, packId: req.pack.id }, 'stripe checkout session could not be created');
    throw new AppError(502, 'stripe_failed', m.stripeFailed);
  }
  const session = (body ?? {}) as { id?: unknown; url?: unknown };
  if (typeof session.id !== 'string' || typeof session.url !== 'string' || !/^https?:\/\//.test(session.url)) {
    ctx.log.error({ packId: req.pack.id }, 'stripe checkout session answer has no id or url');
    throw new AppError(502, 'stripe_failed', m.stripeFailed);
  }
  return { id: session.id, url: session.url };
}
