import {
  type AdminCreditPacks,
  type CreditCheckoutResponse,
  type CreditOffer,
  type CreditPack,
  type CreditPackSaveResponse,
  type creditPackInputSchema,
  DEFAULT_CREDITS_HOW_TO,
  MAX_CREDIT_PACKS,
  creditPackMessages as m,
} from '@canopy/contract';
import type { z } from 'zod';
import { activityRepo } from '../activity/activity.repo.ts';
import { adminActor } from '../admin/content/admin-actor.ts';
import type { AppContext } from '../context.ts';
import { AppError, conflict, notFound } from '../errors.ts';
import type { UserRow } from '../users/users.repo.ts';
import { creditPacksRepo } from './credit-packs.repo.ts';
import { createCheckoutSession } from './stripe-checkout.ts';

type PackInput = z.output<typeof creditPackInputSchema>;

/**
 * Stripe's secret key, when the panel can sell credits: both it and the webhook secret are needed, since a
 * session the webhook cannot verify would take money and credit nothing.
 */
export function stripeKey(ctx: AppContext): string | undefined {
  return ctx.config.stripeSecretKey && ctx.config.stripeWebhookSecret ? ctx.config.stripeSecretKey : undefined;
}

const howTo = async (ctx: AppContext) => (await creditPacksRepo.howTo(ctx.db)) || DEFAULT_CREDITS_HOW_TO;

/** GET /credits/offer: the packs on sale (none without Stripe) and the operator's text. */
export async function creditOffer(ctx: AppContext): Promise<CreditOffer> {
  const configured = stripeKey(ctx) !== undefined;
  return {
    stripeConfigured: configured,
    packs: configured ? await creditPacksRepo.list(ctx.db, true) : [],
    howTo: await howTo(ctx),
  };
}

/** GET /admin/credit-packs. */
export async function adminCreditPacks(ctx: AppContext): Promise<AdminCreditPacks> {
  return {
    packs: await creditPacksRepo.list(ctx.db),
    howTo: await howTo(ctx),
    stripeConfigured: stripeKey(ctx) !== undefined,
  };
}

const describe = (p: Omit<CreditPack, 'id'>) =>
  `${p.name}: ${p.credits} credits for ${p.price} ${p.currency} (minor units), ${p.active ? 'active' : 'inactive'}, order ${p.sortOrder}`;

/** POST /admin/credit-packs: a new pack, logged; refused past MAX_CREDIT_PACKS. */
export async function createPack(ctx: AppContext, admin: UserRow, input: PackInput): Promise<CreditPackSaveResponse> {
  const now = ctx.now();
  const pack = await ctx.db.transaction(async (tx) => {
    await creditPacksRepo.lockForWrite(tx);
    if ((await creditPacksRepo.count(tx)) >= MAX_CREDIT_PACKS) throw conflict(m.tooManyPacks, 'too_many_packs');
    const created = await creditPacksRepo.insert(tx, input, now);
    await activityRepo.add(tx, { action: 'Credit pack created', ...adminActor(admin), details: describe(input) }, now);
    return created;
  });
  return { message: m.packCreated, pack };
}

/** PUT /admin/credit-packs/:packId: the whole pack replaced, logged with before and after. */
export async function updatePack(
  ctx: AppContext,
  admin: UserRow,
  id: string,
  input: PackInput,
): Promise<CreditPackSaveResponse> {
  const now = ctx.now();
  const pack = { id, ...input };
  await ctx.db.transaction(async (tx) => {
    await creditPacksRepo.lockForWrite(tx);
    const before = await creditPacksRepo.find(tx, id);
    if (!before) throw notFound(m.unknownPack, 'unknown_pack');
    await creditPacksRepo.update(tx, pack, now);
    const details = `${describe(before)} → ${describe(input)}`;
    await activityRepo.add(tx, { action: 'Credit pack changed', ...adminActor(admin), details }, now);
  });
  return { message: m.packSaved, pack };
}

/** PUT /admin/credit-packs/how-to: the operator's text, logged when it changed. */
export async function saveHowTo(ctx: AppContext, admin: UserRow, text: string) {
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    const before = (await creditPacksRepo.howTo(tx)) ?? '';
    if (before === text) return;
    await creditPacksRepo.saveHowTo(tx, text);
    const details = `${text.length} characters${text === '' ? ' (the default text is shown)' : ''}`;
    await activityRepo.add(tx, { action: 'Credits how-to text changed', ...adminActor(admin), details }, now);
  });
  return { message: m.howToSaved, howTo: text || DEFAULT_CREDITS_HOW_TO };
}

/**
 * POST /users/:id/credits/checkout: a Stripe Checkout Session for an active pack, coming back to Renew & Shop
 * with ?credits=returned or ?credits=cancelled. Nothing is stored: the webhook credits the session once paid.
 */
export async function startCreditCheckout(
  ctx: AppContext,
  user: UserRow,
  packId: string,
  base: string,
  idempotencyKey: string | undefined,
): Promise<CreditCheckoutResponse> {
  const key = stripeKey(ctx);
  if (!key) throw new AppError(503, 'payments_unconfigured', m.paymentsUnconfigured);
  const pack = await creditPacksRepo.find(ctx.db, packId);
  if (!pack) throw notFound(m.unknownPack, 'unknown_pack');
  if (!pack.active) throw conflict(m.inactivePack, 'inactive_pack');
  const session = await createCheckoutSession(ctx, key, {
    pack,
    userId: user.id,
    successUrl: `${base}/renew?credits=returned`,
    cancelUrl: `${base}/renew?credits=cancelled`,
    idempotencyKey,
  });
  ctx.log.info({ userId: user.id, packId, sessionId: session.id }, 'stripe checkout session created');
  return { sessionId: session.id, url: session.url };
}
