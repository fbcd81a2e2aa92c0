import { z } from 'zod';

/** Most packs an operator keeps (active or not): a short price list, and a bound on the table. */
export const MAX_CREDIT_PACKS = 50;
/** Longest operator text on how credits are obtained without Stripe. */
export const CREDITS_HOW_TO_MAX = 2000;
/** Stripe checkouts a user may open per 10 minutes: a person tries a few packs; a script is cut off. */
export const CREDIT_CHECKOUT_RATE_LIMIT = { max: 10, windowMs: 10 * 60_000 } as const;
/** Rows of one page of a user's credit history. */
export const CREDIT_HISTORY_PAGE_SIZE = 10;
/** What the page says when the operator has written nothing (no Stripe configured). */
export const DEFAULT_CREDITS_HOW_TO =
  'Credits are not sold in the panel on this platform. Ask an administrator (for example on the Discord server) how to get some, or redeem a code on the Redeem page.';

/** Texts of buying credits (Renew & Shop), the admin's credit packs and the Profile's credit history. */
export const creditPackMessages = {
  buyCredits: 'Buy credits',
  choosePack: 'Choose a credit pack',
  noPacks: 'No credit packs are on sale right now.',
  paymentsUnconfigured: 'Buying credits is not available on this platform.',
  unknownPack: 'This credit pack does not exist.',
  inactivePack: 'This credit pack is no longer on sale.',
  stripeFailed: 'Stripe could not start the checkout. Try again in a moment.',
  purchaseReturned:
    'Thank you! Your payment is being confirmed by Stripe; your credits appear here as soon as it is (usually within a minute).',
  purchaseCancelled: 'The checkout was cancelled: nothing was charged.',
  packCreated: 'Credit pack created.',
  packSaved: 'Credit pack saved.',
  tooManyPacks: `At most ${MAX_CREDIT_PACKS} credit packs can exist; edit or deactivate one instead.`,
  howToSaved: 'The text on how to get credits was saved.',
  historyTitle: 'Credit history',
  historyEmpty: 'No credit changes yet.',
} as const;

/** Why a credit change happened, as the history shows it (credit_ledger.reason). */
export const creditReasonLabels: Record<string, string> = {
  purchase: 'Shop purchase',
  payment: 'Credits bought',
  admin: 'Changed by an administrator',
  cli: 'Changed by the operator',
};

const packId = z.string().regex(/^[A-Za-z0-9-]{1,64}$/, 'The credit pack id is not valid.');
export const creditPackIdParamsSchema = z.object({ packId });

/** A pack as stored: price in the currency's minor units (500 = 5.00 USD). */
export const creditPackSchema = z.object({
  id: z.string(),
  name: z.string(),
  credits: z.number().int(),
  price: z.number().int(),
  currency: z.string(),
  active: z.boolean(),
  sortOrder: z.number().int(),
});
export type CreditPack = z.infer<typeof creditPackSchema>;

/** An admin's create or edit of a pack (the whole pack; the database holds the same bounds). */
export const creditPackInputSchema = z.object({
  name: z.string().trim().min(1, 'The name must not be empty.').max(60, 'The name is at most 60 characters.'),
  credits: z
    .number()
    .int('Credits must be a whole number.')
    .min(1, 'A pack gives at least 1 credit.')
    .max(999_999_999, 'A pack gives at most 999,999,999 credits.'),
  price: z
    .number()
    .int('The price is a whole number of minor units (cents).')
    .min(1, 'The price must be at least 1 minor unit.')
    .max(99_999_999, 'The price is at most 99,999,999 minor units.'),
  currency: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{3}$/, 'The currency is a three-letter ISO code, e.g. usd.')
    .transform((v) => v.toLowerCase()),
  active: z.boolean(),
  sortOrder: z.number().int().min(-1_000_000).max(1_000_000).default(0),
});
export type CreditPackInput = z.input<typeof creditPackInputSchema>;

export const creditPackSaveResponseSchema = z.object({ message: z.string(), pack: creditPackSchema });
export type CreditPackSaveResponse = z.infer<typeof creditPackSaveResponseSchema>;

/** GET /admin/credit-packs: every pack, the operator's text, and whether Stripe is configured. */
export const adminCreditPacksSchema = z.object({
  packs: z.array(creditPackSchema),
  howTo: z.string(),
  stripeConfigured: z.boolean(),
});
export type AdminCreditPacks = z.infer<typeof adminCreditPacksSchema>;

export const creditsHowToRequestSchema = z.object({
  howTo: z.string().trim().max(CREDITS_HOW_TO_MAX, `The text is at most ${CREDITS_HOW_TO_MAX} characters.`),
});
export const creditsHowToResponseSchema = z.object({ message: z.string(), howTo: z.string() });

/** GET /credits/offer: what Renew & Shop offers: the packs on sale when Stripe is configured, else the text. */
export const creditOfferSchema = z.object({
  stripeConfigured: z.boolean(),
  packs: z.array(creditPackSchema),
  howTo: z.string(),
});
export type CreditOffer = z.infer<typeof creditOfferSchema>;

export const creditCheckoutRequestSchema = z.object({ packId });
export const creditCheckoutResponseSchema = z.object({ sessionId: z.string(), url: z.string() });
export type CreditCheckoutResponse = z.infer<typeof creditCheckoutResponseSchema>;

export const creditHistoryQuerySchema = z.object({
  page: z.coerce
    .number()
    .int('page must be a whole number.')
    .min(1, 'page must be 1 or more.')
    .max(1_000_000)
    .default(1),
});
export const creditHistoryEntrySchema = z.object({
  id: z.string(),
  delta: z.number().int(),
  balance: z.number().int(),
  reason: z.string(),
  createdAt: z.number().int(),
});
export type CreditHistoryEntry = z.infer<typeof creditHistoryEntrySchema>;
export const creditHistorySchema = z.object({
  items: z.array(creditHistoryEntrySchema),
  total: z.number().int().nonnegative(),
  page: z.number().int().min(1),
  pageSize: z.number().int().min(1),
});
export type CreditHistory = z.infer<typeof creditHistorySchema>;
