/**
 * How many credits a paid Checkout Session is worth. Pure: the webhook (stripe-webhook.ts) decides what to
 * do with a session that is worth none.
 */

/** The fields of a Checkout Session this seam reads, typed `unknown`: they come from signed but foreign JSON. */
export interface PaidSession {
  id?: unknown;
  payment_status?: unknown;
  client_reference_id?: unknown;
  amount_total?: unknown;
  currency?: unknown;
  metadata?: unknown;
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Stripe's zero-decimal currencies (docs.stripe.com/currencies#zero-decimal): amount_total counts whole
 * units, so 500 JPY is 500 and not 5.00. IDR, HUF, TWD and ISK are NOT on the list: Stripe takes their
 * amounts with two decimals like most currencies.
 */
const ZERO_DECIMAL = new Set([
  'bif',
  'clp',
  'djf',
  'gnf',
  'jpy',
  'kmf',
  'krw',
  'mga',
  'pyg',
  'rwf',
  'ugx',
  'vnd',
  'vuv',
  'xaf',
  'xof',
  'xpf',
]);
/** Stripe's three-decimal currencies: a whole unit is 1000 in amount_total. */
const THREE_DECIMAL = new Set(['bhd', 'jod', 'kwd', 'omr', 'tnd']);

/** How many of amount_total's minor units make one whole unit of `currency` (lower-case ISO code). */
export function minorUnitsPerUnit(currency: string): number {
  if (ZERO_DECIMAL.has(currency)) return 1;
  return THREE_DECIMAL.has(currency) ? 1000 : 100;
}

/** What a session is worth: credits > 0, or 0 with the reason an admin reads in the activity log. */
export type SessionCredits = { credits: number; reason?: undefined } | { credits: 0; reason: string };

/**
 * Credits for a paid Checkout Session: `metadata.credits` when the operator's checkout set it (a whole
 * number 1..999,999,999; any other value is a mistake to report, not a cue to guess from the amount), else
 * amount_total converted from the currency's minor unit times the configured rate, only when the session's
 * currency is the configured one (5 EUR is not 5 USD).
 */
export function creditsFor(session: PaidSession, rule: { rate: number; currency: string }): SessionCredits {
  const metadata = isRecord(session.metadata) ? session.metadata : {};
  if ('credits' in metadata) {
    const named = metadata.credits;
    if (typeof named === 'string' && /^\d{1,9}$/.test(named.trim()) && Number(named) > 0)
      return { credits: Number(named.trim()) };
    return { credits: 0, reason: 'metadata.credits is not a whole number of credits' };
  }
  const currency = typeof session.currency === 'string' ? session.currency.toLowerCase() : undefined;
  if (currency !== rule.currency)
    return { credits: 0, reason: `the currency is not the configured ${rule.currency} (and no metadata.credits)` };
  const paid = session.amount_total;
  if (typeof paid !== 'number' || !Number.isSafeInteger(paid) || paid <= 0)
    return { credits: 0, reason: 'amount_total is not a positive whole amount' };
  const credits = Math.floor((paid / minorUnitsPerUnit(currency)) * rule.rate);
  return credits > 0 ? { credits } : { credits: 0, reason: 'the amount paid is worth less than one credit' };
}
