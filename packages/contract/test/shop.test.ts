import assert from 'node:assert/strict';
import { it } from 'node:test';
import {
  addToCart,
  CART_MAX_ENTRIES,
  CART_MAX_QUANTITY,
  type Cart,
  cartMax,
  cartSchema,
  cartTotal,
  checkoutRequestSchema,
  pruneCart,
  type ShopItem,
  shopMessages as s,
  setCartQuantity,
} from '../src/index.ts';

const item = (id: string, type: ShopItem['type'], cost: number, isPurchased = false): ShopItem => ({
  id,
  name: `Name of ${id}`,
  description: '',
  cost,
  type,
  isPurchased,
  purchaseLimit: null,
});
const pack = item('server_time_7d', 'quantifiable', 100);
const storage = item('storage_upgrade_256', 'one_time', 200);

const added = (cart: Cart, what: ShopItem) => {
  const change = addToCart(cart, what);
  if (!change.ok) assert.fail(change.message);
  return change.cart;
};

it('adds a one_time item once, with the spec text the second time', () => {
  const cart = added({}, storage);
  assert.deepEqual(cart, { storage_upgrade_256: 1 });
  assert.deepEqual(addToCart(cart, storage), {
    ok: false,
    message: 'Name of storage_upgrade_256 is already in your cart.',
  });
  assert.deepEqual(addToCart({}, { ...storage, isPurchased: true }), {
    ok: false,
    message: s.alreadyOwned(storage.name),
  });
});

it('counts quantifiable items up, capped at the limit, within the entry limit', () => {
  assert.deepEqual(added(added({}, pack), pack), { server_time_7d: 2 });
  assert.deepEqual(added({ server_time_7d: CART_MAX_QUANTITY }, pack), { server_time_7d: CART_MAX_QUANTITY });
  const full = Object.fromEntries(Array.from({ length: CART_MAX_ENTRIES }, (_, i) => [`x${i}`, 1]));
  assert.deepEqual(addToCart(full, pack), { ok: false, message: s.tooManyEntries });
});

it('removes an item whose quantity is set to 0, and caps or floors the others', () => {
  const cart = { server_time_7d: 3, extra_slot: 1 };
  assert.deepEqual(setCartQuantity(cart, 'server_time_7d', 0), { extra_slot: 1 });
  assert.deepEqual(setCartQuantity(cart, 'server_time_7d', -2), { extra_slot: 1 });
  assert.deepEqual(setCartQuantity(cart, 'server_time_7d', Number.NaN), { extra_slot: 1 });
  assert.deepEqual(setCartQuantity(cart, 'server_time_7d', 5.7), { server_time_7d: 5, extra_slot: 1 });
  assert.deepEqual(setCartQuantity(cart, 'extra_slot', 1000), { server_time_7d: 3, extra_slot: CART_MAX_QUANTITY });
});

it('totals at the listed prices and drops what is gone or bought', () => {
  const cart = { server_time_7d: 3, storage_upgrade_256: 1, retired_item: 4 };
  assert.equal(cartTotal(cart, [pack, storage]), 500);
  assert.equal(cartTotal({}, [pack, storage]), 0);
  assert.deepEqual(pruneCart(cart, [pack, { ...storage, isPurchased: true }]), { server_time_7d: 3 });
});

it('accepts only bounded carts of item ids and whole quantities, never a price', () => {
  assert.equal(cartSchema.safeParse({ server_time_7d: 2 }).success, true);
  for (const bad of [
    { server_time_7d: 0 },
    { server_time_7d: 1.5 },
    { server_time_7d: CART_MAX_QUANTITY + 1 },
    { server_time_7d: '2' },
    { 'Server Time': 1 },
    { server_time_7d: { quantity: 1, cost: 0 } },
    Object.fromEntries(Array.from({ length: CART_MAX_ENTRIES + 1 }, (_, i) => [`x${i}`, 1])),
  ])
    assert.equal(cartSchema.safeParse(bad).success, false, JSON.stringify(bad));
  assert.equal(checkoutRequestSchema.safeParse({ cart: {}, total: 0 }).success, false);
});

it("keeps a cart within an item's purchase limit, with the api's reason", () => {
  const slot = { ...item('extra_slot', 'quantifiable', 500), purchaseLimit: { max: 1, reason: s.slotOnlyOne('Slot') } };
  const cart = added({}, slot);
  assert.deepEqual(cart, { extra_slot: 1 });
  assert.deepEqual(addToCart(cart, slot), { ok: false, message: s.slotOnlyOne('Slot') });
  const useless = { ...slot, purchaseLimit: { max: 0, reason: s.slotWithServer('Slot') } };
  assert.deepEqual(addToCart({}, useless), { ok: false, message: s.slotWithServer('Slot') });
  assert.deepEqual(setCartQuantity(cart, 'extra_slot', 5, cartMax(slot)), { extra_slot: 1 });
  assert.deepEqual(setCartQuantity(cart, 'extra_slot', 5, cartMax(useless)), {});
  // A slot that became useless meanwhile (a server was created) drops out; one over the limit is capped.
  assert.deepEqual(pruneCart({ extra_slot: 3, server_time_7d: 2 }, [slot, pack]), { extra_slot: 1, server_time_7d: 2 });
  assert.deepEqual(pruneCart({ extra_slot: 1 }, [useless]), {});
  assert.equal(cartMax(pack), CART_MAX_QUANTITY);
});
