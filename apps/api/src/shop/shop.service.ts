import { type Cart, type CheckoutResponse, type ShopItem, shopMessages as s } from '@canopy/contract';
import { isAdmin } from '../access/account-access.ts';
import { activityRepo } from '../activity/activity.repo.ts';
import type { Caller } from '../auth/guard.ts';
import { collaboratorsRepo } from '../collaborators/collaborators.repo.ts';
import type { AppContext } from '../context.ts';
import { type Db, isUniqueViolation } from '../db/db.ts';
import { addServerDays, addSlots, changeCredit, raiseStorageLimit } from '../economy/grants.ts';
import { badRequest, conflict, forbidden } from '../errors.ts';
import { serversRepo } from '../servers/servers.repo.ts';
import { type UserRow, usersRepo } from '../users/users.repo.ts';
import { type ShopItemRow, shopRepo } from './shop.repo.ts';

/**
 * Server slots a user can still put to use: each account owns one server at most (spec 1), a server holds
 * its slot (deleting it gives the slot back), and free slots wait for that one server. So a slot helps only
 * an account with neither a server nor a free slot, and then one slot at most; why not, when it cannot.
 */
async function usableSlots(db: Db, userId: string): Promise<{ slots: number; why: 'server' | 'spare' | 'one' }> {
  const [user, server] = await Promise.all([usersRepo.findById(db, userId), serversRepo.findByOwner(db, userId)]);
  if (server) return { slots: 0, why: 'server' };
  if (Number(user?.available_slot ?? 0) > 0) return { slots: 0, why: 'spare' };
  return { slots: 1, why: 'one' };
}

const slotReason = (why: 'server' | 'spare' | 'one', name: string) =>
  why === 'server' ? s.slotWithServer(name) : why === 'spare' ? s.slotSpare(name) : s.slotOnlyOne(name);

/** The most units of `item` that can be used, and why no more; null for items without such a limit. */
function purchaseLimit(item: ShopItemRow, usable: { slots: number; why: 'server' | 'spare' | 'one' }) {
  if (item.effect !== 'slots') return null;
  return { max: Math.floor(usable.slots / Number(item.effect_amount)), reason: slotReason(usable.why, item.name) };
}

/**
 * GET /shop/items: what is on sale, with the one_time items this caller already bought marked and the
 * slots they could not use limited (who may ask: shop.routes.ts).
 */
export async function listShopItems(ctx: AppContext, caller: Caller): Promise<ShopItem[]> {
  const [items, bought, usable] = await Promise.all([
    shopRepo.listActive(ctx.db),
    shopRepo.oneTimeBought(ctx.db, caller.user.id),
    usableSlots(ctx.db, caller.user.id),
  ]);
  return items.map((i) => ({
    id: i.id,
    name: i.name,
    description: i.description,
    cost: Number(i.cost),
    type: i.type,
    isPurchased: i.type === 'one_time' && bought.has(i.id),
    purchaseLimit: purchaseLimit(i, usable),
  }));
}

/** Refuses a cart whose slots could not all be used (usableSlots), naming the first slot item of the cart. */
async function assertSlotsUsable(tx: Db, userId: string, lines: readonly { item: ShopItemRow; quantity: number }[]) {
  const slotLines = lines.filter((l) => l.item.effect === 'slots');
  const first = slotLines[0];
  if (!first) return;
  const wanted = slotLines.reduce((sum, l) => sum + Number(l.item.effect_amount) * l.quantity, 0);
  const usable = await usableSlots(tx, userId);
  if (wanted > usable.slots) throw conflict(slotReason(usable.why, first.item.name), 'slot_unusable');
}

/** Checkout is the owner's (spec 6): a collaborator is refused, before the body and again under the lock. */
export async function assertNotCollaborator(ctx: AppContext, caller: Caller): Promise<void> {
  if (await collaboratorsRepo.serverOf(ctx.db, caller.user.id)) throw forbidden(s.ownerOnly, 'owner_only');
}

/** The cart's lines at the database's prices; refuses unknown items and a one_time quantity above 1. */
function priceCart(cart: Cart, rows: readonly ShopItemRow[]) {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const lines = Object.entries(cart).map(([id, quantity]) => {
    const item = byId.get(id);
    if (!item) throw badRequest(s.unknownItem(id), 'unknown_item');
    if (item.type === 'one_time' && quantity !== 1) throw badRequest(s.oneTimeQuantity(item.name), 'one_time_quantity');
    return { item, quantity };
  });
  return { lines, total: lines.reduce((sum, l) => sum + Number(l.item.cost) * l.quantity, 0) };
}

/** Gives the account what one line bought (grants.ts; inside the checkout's transaction). */
async function applyEffect(tx: Db, userId: string, item: ShopItemRow, quantity: number, now: number) {
  const amount = Number(item.effect_amount) * quantity;
  if (item.effect === 'server_days') await addServerDays(tx, userId, amount, now);
  else if (item.effect === 'slots') await addSlots(tx, userId, amount);
  else await raiseStorageLimit(tx, userId, amount);
}

/**
 * POST /users/{id}/shop/checkout. The debit, the purchase rows and every effect are one transaction
 * holding the buyer's row lock, so parallel checkouts queue and any refusal (too few credits, a one_time
 * item bought before, server time that cannot be extended) leaves the account as it was.
 */
export async function checkout(ctx: AppContext, user: UserRow, cart: Cart): Promise<CheckoutResponse> {
  if (Object.keys(cart).length === 0) throw badRequest(s.emptyCart, 'empty_cart');
  const now = ctx.now();
  let bought: { lines: { item: ShopItemRow; quantity: number }[]; total: number };
  let credit: number;
  try {
    [bought, credit] = await ctx.db.transaction(async (tx) => {
      await collaboratorsRepo.lockUser(tx, user.id);
      // Invited while the request waited for the lock: still owner only.
      if (await collaboratorsRepo.serverOf(tx, user.id)) throw forbidden(s.ownerOnly, 'owner_only');
      const priced = priceCart(cart, await shopRepo.findActive(tx, Object.keys(cart)));
      // Read under the lock, which server creation takes too: a slot is never sold to an account that cannot use it.
      await assertSlotsUsable(tx, user.id, priced.lines);
      const owned = await shopRepo.oneTimeBought(tx, user.id);
      for (const { item } of priced.lines)
        if (item.type === 'one_time' && owned.has(item.id))
          throw conflict(s.alreadyOwned(item.name), 'already_purchased');
      const balance = await changeCredit(
        tx,
        user.id,
        { delta: -priced.total, reason: 'purchase', actor: user.id },
        now,
      );
      if (balance === null) throw conflict(s.notEnoughCredits, 'not_enough_credits');
      for (const { item, quantity } of priced.lines) {
        await shopRepo.addPurchase(tx, user.id, item, quantity, now);
        await applyEffect(tx, user.id, item, quantity, now);
      }
      return [priced, balance] as const;
    });
  } catch (error) {
    // Only reachable by a writer that skipped the lock; the index still holds the rule.
    if (isUniqueViolation(error)) throw conflict(s.alreadyOwned('this item'), 'already_purchased');
    throw error;
  }
  await logPurchase(ctx, user, bought.lines, bought.total, now);
  return { message: s.checkoutSucceeded(bought.total, credit), credit };
}

/** The activity log line of a purchase; a failing entry never turns a completed purchase into an error. */
async function logPurchase(
  ctx: AppContext,
  user: UserRow,
  lines: { item: ShopItemRow; quantity: number }[],
  total: number,
  now: number,
) {
  const what = lines.map((l) => `${l.quantity} x ${l.item.id}`).join(', ');
  try {
    await activityRepo.add(
      ctx.db,
      {
        action: 'Shop purchase',
        actorType: isAdmin(user) ? 'Admin' : 'User',
        actorName: user.grow_id ?? user.username,
        details: `${what} for ${total} credits`,
      },
      now,
    );
  } catch (error) {
    ctx.log.error({ err: error }, 'activity log entry for a completed purchase could not be written');
  }
}
