import { z } from 'zod';

/** Most distinct items one checkout may hold: the seeded shop has five; this only bounds abuse. */
export const CART_MAX_ENTRIES = 20;
/** Most units of one quantifiable item per checkout. */
export const CART_MAX_QUANTITY = 100;
/** Checkouts per user per minute: a person clicks a few times; scripts hammering the debit are cut off. */
export const CHECKOUT_RATE_LIMIT = { max: 30, windowMs: 60_000 } as const;
/** Stripe webhook deliveries per IP per minute: Stripe sends from a handful of addresses; a flood from one is not Stripe. */
export const WEBHOOK_RATE_LIMIT = { max: 300, windowMs: 60_000 } as const;
/** Largest Stripe webhook body accepted: a checkout.session.completed event is a few KB. */
export const STRIPE_WEBHOOK_BODY_LIMIT = 64 * 1024;

/** Texts of Renew & Shop (spec 2.9, 5, 6 and 8) and of where credits come from. */
export const shopMessages = {
  title: 'Renew & Shop',
  notEnoughCredits: 'You do not have enough credits to make this purchase.',
  ownerOnly: 'Only the server owner can renew the server or purchase items.',
  fetchFailed: 'Could not fetch shop items.',
  checkoutFailed: 'Checkout failed.',
  alreadyInCart: (name: string) => `${name} is already in your cart.`,
  alreadyOwned: (name: string) => `You have already purchased ${name}. It can be bought only once.`,
  emptyCart: 'Your cart is empty. Add an item before checking out.',
  unknownItem: (id: string) => `The item "${id}" is not available in the shop.`,
  oneTimeQuantity: (name: string) => `${name} can be bought only once: its quantity must be 1.`,
  tooManyEntries: `A cart holds at most ${CART_MAX_ENTRIES} different items.`,
  quantityRange: `Quantities must be whole numbers from 1 to ${CART_MAX_QUANTITY}.`,
  itemIdInvalid: 'Item ids are 1 to 64 lowercase letters, digits or underscores.',
  // Our words: a slot is only of use to make a server from, and each account owns one server at most (spec 1).
  slotWithServer: (name: string) =>
    `${name} would go unused: you already own a server, and each account can own one. Deleting your server gives its slot back.`,
  slotSpare: (name: string) =>
    `${name} would go unused: you already have a free server slot, and each account can own one server.`,
  slotOnlyOne: (name: string) => `Only one ${name} can be used: each account can own one server.`,
  checkoutSucceeded: (spent: number, balance: number) =>
    `Purchase successful! ${spent} credits spent; your balance is now ${balance} credits.`,
  // Page labels.
  purchased: 'Purchased',
  addToCart: 'Add to Cart',
  inCart: 'In Cart',
  cart: 'Cart',
  cartEmpty: 'Your cart is empty.',
  total: 'Total',
  balance: 'Your credits',
  checkout: 'Checkout',
  remove: 'Remove',
  credits: (n: number) => `${n} ${n === 1 ? 'credit' : 'credits'}`,
  noItems: 'The shop has no items right now.',
} as const;

/** Labels of the Renew & Shop page that are not messages. */
export const shopLabels = {
  subtitle: 'Spend your credits on server time, slots and storage.',
  oneLess: (name: string) => `One less ${name}`,
  oneMore: (name: string) => `One more ${name}`,
  quantityOf: (name: string) => `Quantity of ${name}`,
} as const;

/** Largest single credit change (the balance column is a 32-bit integer on PostgreSQL). */
export const MAX_CREDIT_CHANGE = 1_000_000_000;
/** Largest balance: PostgreSQL's INTEGER column ends here (SQLite would go on, so the api holds both to it). */
export const MAX_CREDIT_BALANCE = 2_147_483_647;

/** Texts of credit grants and of the payment webhook. */
export const creditMessages = {
  unknownUser: 'No user has this Discord ID or GrowID.',
  amountInvalid: `The amount must be a whole number other than 0, at most ${MAX_CREDIT_CHANGE.toLocaleString('en-GB')} either way.`,
  belowZero: 'This change would take the balance below zero.',
  balanceTooHigh: `This change would take the balance above ${MAX_CREDIT_BALANCE.toLocaleString('en-GB')} credits.`,
  paymentsUnconfigured: 'Payments are not configured.',
  badSignature: 'The payment event signature is missing, invalid or too old.',
} as const;

export const shopItemTypeSchema = z.enum(['one_time', 'quantifiable']);
export type ShopItemType = z.infer<typeof shopItemTypeSchema>;

/**
 * Our addition: the most units of an item this user can put to use now, and why no more (an Extra Server
 * Slot while they own a server or hold a free slot: max 0). The api refuses a checkout past it.
 */
export const purchaseLimitSchema = z.object({ max: z.number().int().nonnegative(), reason: z.string() });
export type PurchaseLimit = z.infer<typeof purchaseLimitSchema>;

/**
 * One item of GET /shop/items (spec section 3); isPurchased: a one_time item this user already bought;
 * purchaseLimit: see purchaseLimitSchema (null: only the cart's own bounds).
 */
export const shopItemSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  cost: z.number().int().nonnegative(),
  type: shopItemTypeSchema,
  isPurchased: z.boolean(),
  purchaseLimit: purchaseLimitSchema.nullable(),
});
export type ShopItem = z.infer<typeof shopItemSchema>;

export const shopItemsSchema = z.array(shopItemSchema);

/** Item ids as the operator writes them in shop_items (server_time_7d, storage_upgrade_256…). */
const ITEM_ID = /^[a-z0-9_]{1,64}$/;
const quantitySchema = z
  .number({ error: shopMessages.quantityRange })
  .int(shopMessages.quantityRange)
  .min(1, shopMessages.quantityRange)
  .max(CART_MAX_QUANTITY, shopMessages.quantityRange);

/** The cart: item id → quantity. Prices are never part of it: the api reads them from the database. */
export const cartSchema = z.record(z.string(), quantitySchema).superRefine((cart, ctx) => {
  const ids = Object.keys(cart);
  if (ids.length > CART_MAX_ENTRIES) ctx.addIssue({ code: 'custom', message: shopMessages.tooManyEntries });
  else if (!ids.every((id) => ITEM_ID.test(id))) ctx.addIssue({ code: 'custom', message: shopMessages.itemIdInvalid });
});
export type Cart = z.infer<typeof cartSchema>;

/** POST /users/{id}/shop/checkout. */
export const checkoutRequestSchema = z.strictObject({ cart: cartSchema });
export type CheckoutRequest = z.infer<typeof checkoutRequestSchema>;

/** The checkout's answer: the spec's {message} plus the new balance. */
export const checkoutResponseSchema = z.object({ message: z.string(), credit: z.number().int().nonnegative() });
export type CheckoutResponse = z.infer<typeof checkoutResponseSchema>;

/**
 * The part of a Stripe event the payment webhook reads, for the OpenAPI document only: the api verifies the raw
 * bytes with Stripe's library and reads the session as unknown JSON (Stripe's reference documents the rest).
 */
export const stripeEventSchema = z.looseObject({
  id: z.string(),
  type: z.string(),
  data: z.looseObject({ object: z.looseObject({}) }),
});

/** What the payment webhook answers to every event it accepted (Stripe retries anything but a 2xx). */
export const webhookAckSchema = z.object({ received: z.literal(true) });

/** The result of a cart change: the new cart, or why it did not change. */
export type CartChange = { ok: true; cart: Cart } | { ok: false; message: string };

/** The most units of `item` a cart may hold: its purchase limit, else CART_MAX_QUANTITY. */
export const cartMax = (item: Pick<ShopItem, 'purchaseLimit'>) =>
  Math.min(item.purchaseLimit?.max ?? CART_MAX_QUANTITY, CART_MAX_QUANTITY);

/**
 * Adds one unit of an item (spec 5): a one_time item goes in once and never when already bought; a
 * quantifiable one gains a unit up to CART_MAX_QUANTITY; none goes past the item's purchase limit.
 */
export function addToCart(
  cart: Cart,
  item: Pick<ShopItem, 'id' | 'name' | 'type' | 'isPurchased' | 'purchaseLimit'>,
): CartChange {
  const current = cart[item.id] ?? 0;
  if (item.purchaseLimit && current >= item.purchaseLimit.max) return { ok: false, message: item.purchaseLimit.reason };
  if (item.type === 'one_time') {
    if (item.isPurchased) return { ok: false, message: shopMessages.alreadyOwned(item.name) };
    if (current > 0) return { ok: false, message: shopMessages.alreadyInCart(item.name) };
    return { ok: true, cart: { ...cart, [item.id]: 1 } };
  }
  if (current === 0 && Object.keys(cart).length >= CART_MAX_ENTRIES)
    return { ok: false, message: shopMessages.tooManyEntries };
  return { ok: true, cart: { ...cart, [item.id]: Math.min(current + 1, CART_MAX_QUANTITY) } };
}

/** Sets an item's quantity: 0 (or less) removes it (spec 5); more than `max` (default the cart's limit) is capped. */
export function setCartQuantity(cart: Cart, id: string, quantity: number, max: number = CART_MAX_QUANTITY): Cart {
  const { [id]: _removed, ...rest } = cart;
  const cap = Math.min(max, CART_MAX_QUANTITY);
  if (!Number.isFinite(quantity) || quantity < 1 || cap < 1) return rest;
  return { ...cart, [id]: Math.min(Math.floor(quantity), cap) };
}

/** The cart's cost at the listed prices; items no longer listed count nothing (the api refuses them anyway). */
export function cartTotal(cart: Cart, items: readonly Pick<ShopItem, 'id' | 'cost'>[]): number {
  let total = 0;
  for (const item of items) total += item.cost * (cart[item.id] ?? 0);
  return total;
}

/**
 * Drops entries whose item is gone from the listing or was bought meanwhile (after a refetch), and caps
 * each at its purchase limit (a slot bought elsewhere meanwhile makes another one useless).
 */
export function pruneCart(
  cart: Cart,
  items: readonly Pick<ShopItem, 'id' | 'type' | 'isPurchased' | 'purchaseLimit'>[],
): Cart {
  const next: Cart = {};
  for (const item of items) {
    const quantity = Math.min(cart[item.id] ?? 0, cartMax(item));
    if (quantity > 0 && !(item.type === 'one_time' && item.isPurchased)) next[item.id] = quantity;
  }
  return next;
}
