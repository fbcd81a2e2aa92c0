import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import {
  CHECKOUT_RATE_LIMIT,
  checkoutResponseSchema,
  creditMessages,
  economyMessages,
  messages,
  shopMessages as s,
  shopItemsSchema,
} from '@canopy/contract';
import { grantCredits } from '../src/payments/credits.service.ts';
import { ownerWithServer, signIn, signInRegistered } from './support/factories.ts';
import { describeEachDatabase, type TestApi } from './support/harness.ts';
import { sql } from './support/servers.ts';

type Session = Awaited<ReturnType<typeof signInRegistered>>;
const DAY = 24 * 3600 * 1000;

const checkoutAs = (api: TestApi, who: Session, body: unknown, headers?: Record<string, string>, id = who.user.id) =>
  api.request('POST', `/users/${id}/shop/checkout`, { token: who.sessionToken, body, headers });
const give = (api: TestApi, who: Session, amount: number) =>
  grantCredits(api.ctx.db, who.user.id, amount, { reason: 'test', actor: 'test' }, api.clock.now);
const profile = async (api: TestApi, who: Session) =>
  (await api.request('GET', `/users/${who.user.id}/profile`, { token: who.sessionToken })).body.profile;
/** Takes the account's free slots (the factory gives one), so an Extra Server Slot is of use to it. */
const noSlots = (api: TestApi, who: Session) =>
  sql(api, 'UPDATE users SET available_slot = 0 WHERE id = ?', [who.user.id]);
const count = async (api: TestApi, table: string, userId: string) =>
  Number((await api.ctx.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table} WHERE user_id = ?`, [userId]))?.n);

describeEachDatabase('renew & shop', (api) => {
  let buyer: Session;
  before(async () => {
    buyer = await signInRegistered(api());
  });

  it('lists the seeded items in order to signed-in, registered users only', async () => {
    assert.equal((await api().request('GET', '/shop/items')).status, 401);
    // The page is for registered users (spec 2.1); the api says so too, not only the route gate.
    const unregistered = await signIn(api());
    const refused = await api().request('GET', '/shop/items', { token: unregistered.sessionToken });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error, messages.notRegistered);
    // Maintenance shows every non-admin the maintenance page; the api answers them 503 too.
    await sql(api(), "INSERT INTO settings (key, value) VALUES ('maintenance', 'true')");
    try {
      const during = await api().request('GET', '/shop/items', { token: buyer.sessionToken });
      assert.equal(during.status, 503);
      assert.equal(during.body.error, messages.maintenance);
    } finally {
      await sql(api(), "DELETE FROM settings WHERE key = 'maintenance'");
    }
    const res = await api().request('GET', '/shop/items', { token: buyer.sessionToken });
    assert.equal(res.status, 200);
    const items = shopItemsSchema.parse(res.body);
    assert.deepEqual(
      items.map((i) => i.id),
      ['server_time_7d', 'server_time_30d', 'extra_slot', 'storage_upgrade_256', 'storage_upgrade_1024'],
    );
    assert.ok(items.every((i) => !i.isPurchased));
    assert.deepEqual(items[3], {
      id: 'storage_upgrade_256',
      name: 'Storage Upgrade +256 MB',
      description: 'Raises your storage limit by 256 MB, for good.',
      cost: 200,
      type: 'one_time',
      isPurchased: false,
      purchaseLimit: null,
    });
    // An operator's change shows: a hidden item disappears, a new order is followed.
    await sql(api(), 'UPDATE shop_items SET active = 0 WHERE id = ?', ['server_time_30d']);
    await sql(api(), 'UPDATE shop_items SET sort_order = 1 WHERE id = ?', ['extra_slot']);
    const changed = (await api().request('GET', '/shop/items', { token: buyer.sessionToken })).body;
    assert.deepEqual(
      changed.map((i: { id: string }) => i.id),
      ['extra_slot', 'server_time_7d', 'storage_upgrade_256', 'storage_upgrade_1024'],
    );
    await sql(api(), 'UPDATE shop_items SET active = 1 WHERE id = ?', ['server_time_30d']);
    await sql(api(), 'UPDATE shop_items SET sort_order = 30 WHERE id = ?', ['extra_slot']);
  });

  it('buys with credits: one debit, purchase rows, and every effect in the profile', async () => {
    const who = await signInRegistered(api());
    await noSlots(api(), who); // so that a slot is of use
    const before = await profile(api(), who);
    assert.equal(before.credit, 0);
    await give(api(), who, 1000);
    const res = await checkoutAs(api(), who, {
      cart: { server_time_7d: 2, extra_slot: 1, storage_upgrade_256: 1 },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const answer = checkoutResponseSchema.parse(res.body);
    assert.deepEqual(answer, { message: s.checkoutSucceeded(900, 100), credit: 100 });
    const after = await profile(api(), who);
    assert.equal(after.credit, 100);
    assert.equal(after.availableSlot, before.availableSlot + 1);
    assert.equal(after.storageLimitMB, before.storageLimitMB + 256);
    // No server yet: the 14 days are banked on top of the starting time.
    assert.equal(after.serverTime.pendingMs, before.serverTime.pendingMs + 14 * DAY);
    assert.equal(await count(api(), 'purchases', who.user.id), 3);
    const ledger = await api().ctx.db.all<{ delta: number; balance: number; reason: string }>(
      'SELECT delta, balance, reason FROM credit_ledger WHERE user_id = ? ORDER BY created_at, balance DESC',
      [who.user.id],
    );
    assert.deepEqual(
      ledger.map((l) => [Number(l.delta), Number(l.balance), l.reason]),
      [
        [1000, 1000, 'test'],
        [-900, 100, 'purchase'],
      ],
    );
    const listed = (await api().request('GET', '/shop/items', { token: who.sessionToken })).body;
    assert.equal(listed.find((i: { id: string }) => i.id === 'storage_upgrade_256').isPurchased, true);
    assert.equal(listed.find((i: { id: string }) => i.id === 'storage_upgrade_1024').isPurchased, false);
    const log = await api().ctx.db.all<{ details: string }>(
      "SELECT details FROM activity_logs WHERE action = 'Shop purchase' AND actor_name = ?",
      [who.growId],
    );
    assert.equal(log.length, 1);
    assert.match(log[0]?.details ?? '', /2 x server_time_7d.*for 900 credits/);
  });

  it('extends a running server clock, and lifts a grace period from now', async () => {
    // A grace period needs a server (without one, time added waits for the next server: redeem.test.ts).
    const who = await ownerWithServer(api(), `shopgrace${process.pid % 10000}${api().dialect[0]}`);
    await give(api(), who, 350);
    const now = api().clock.now;
    await sql(api(), 'UPDATE users SET server_expires_at = ?, pending_server_ms = 0 WHERE id = ?', [
      now - DAY,
      who.user.id,
    ]);
    assert.equal((await checkoutAs(api(), who, { cart: { server_time_30d: 1 } })).status, 200);
    const row = await api().ctx.db.get<{ server_expires_at: number }>(
      'SELECT server_expires_at FROM users WHERE id = ?',
      [who.user.id],
    );
    assert.equal(Number(row?.server_expires_at), now + 30 * DAY);
  });

  it('takes prices from the database, never from the request', async () => {
    const who = await signInRegistered(api());
    await give(api(), who, 500);
    for (const body of [
      { cart: { extra_slot: 1 }, total: 0 },
      { cart: { extra_slot: { quantity: 1, cost: 0 } } },
      { cart: { extra_slot: 1 }, prices: { extra_slot: 0 } },
    ]) {
      const res = await checkoutAs(api(), who, body);
      assert.equal(res.status, 400, JSON.stringify(body));
    }
    await sql(api(), 'UPDATE shop_items SET cost = 321 WHERE id = ?', ['server_time_7d']);
    try {
      const res = await checkoutAs(api(), who, { cart: { server_time_7d: 1 } });
      assert.equal(res.status, 200);
      assert.equal(res.body.credit, 500 - 321);
    } finally {
      await sql(api(), 'UPDATE shop_items SET cost = 100 WHERE id = ?', ['server_time_7d']);
    }
  });

  it('refuses bad carts with clear messages and changes nothing', async () => {
    const who = await signInRegistered(api());
    await give(api(), who, 10_000);
    const cases: [unknown, number, string][] = [
      [{ cart: {} }, 400, s.emptyCart],
      [{ cart: { no_such_item: 1 } }, 400, s.unknownItem('no_such_item')],
      [{ cart: { storage_upgrade_256: 2 } }, 400, s.oneTimeQuantity('Storage Upgrade +256 MB')],
      [{ cart: { server_time_7d: 0 } }, 400, `cart.server_time_7d: ${s.quantityRange}`],
      [{ cart: { server_time_7d: 1.5 } }, 400, `cart.server_time_7d: ${s.quantityRange}`],
      [{ cart: { server_time_7d: 101 } }, 400, `cart.server_time_7d: ${s.quantityRange}`],
      [{ cart: { 'Bad Id!': 1 } }, 400, s.itemIdInvalid],
      [{ cart: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`item_${i}`, 1])) }, 400, s.tooManyEntries],
      [{}, 400, 'cart is required.'],
    ];
    for (const [body, status, error] of cases) {
      const res = await checkoutAs(api(), who, body);
      assert.equal(res.status, status, JSON.stringify(body));
      assert.equal(res.body.error, error, JSON.stringify(body));
    }
    // An inactive item cannot be bought even by id.
    await sql(api(), 'UPDATE shop_items SET active = 0 WHERE id = ?', ['server_time_30d']);
    const hidden = await checkoutAs(api(), who, { cart: { server_time_30d: 1 } });
    await sql(api(), 'UPDATE shop_items SET active = 1 WHERE id = ?', ['server_time_30d']);
    assert.equal(hidden.body.error, s.unknownItem('server_time_30d'));
    assert.equal((await profile(api(), who)).credit, 10_000);
    assert.equal(await count(api(), 'purchases', who.user.id), 0);
  });

  it('refuses a cart above the balance, and a one_time item bought before, atomically', async () => {
    const who = await signInRegistered(api());
    await give(api(), who, 699);
    const poor = await checkoutAs(api(), who, { cart: { server_time_7d: 1, server_time_30d: 2 } });
    assert.equal(poor.status, 409);
    assert.equal(poor.body.error, s.notEnoughCredits);
    assert.equal((await profile(api(), who)).credit, 699);
    assert.equal(await count(api(), 'purchases', who.user.id), 0);

    assert.equal((await checkoutAs(api(), who, { cart: { storage_upgrade_256: 1 } })).status, 200);
    const before = await profile(api(), who);
    const twice = await checkoutAs(api(), who, { cart: { storage_upgrade_256: 1, server_time_7d: 1 } });
    assert.equal(twice.status, 409);
    assert.equal(twice.body.error, s.alreadyOwned('Storage Upgrade +256 MB'));
    const after = await profile(api(), who);
    assert.equal(after.credit, 499);
    assert.equal(after.storageLimitMB, before.storageLimitMB);
    assert.equal(after.serverTime.pendingMs, before.serverTime.pendingMs);
  });

  it('rolls the debit back when an effect is refused (permanent server time)', async () => {
    const who = await signInRegistered(api());
    await give(api(), who, 1000);
    await sql(api(), 'UPDATE users SET server_permanent = 1 WHERE id = ?', [who.user.id]);
    await noSlots(api(), who);
    // The slot is granted first, then the server time is refused: both go back.
    const res = await checkoutAs(api(), who, { cart: { extra_slot: 1, server_time_7d: 1 } });
    assert.equal(res.status, 409);
    assert.equal(res.body.error, economyMessages.serverTimePermanent);
    const after = await profile(api(), who);
    assert.equal(after.credit, 1000);
    assert.equal(after.availableSlot, 0);
    assert.equal(await count(api(), 'purchases', who.user.id), 0);
  });

  it('sells a server slot only to an account that can use it, and says why not', async () => {
    const who = await signInRegistered(api()); // the factory's one free slot
    await give(api(), who, 5000);
    const slotItem = async () =>
      shopItemsSchema
        .parse((await api().request('GET', '/shop/items', { token: who.sessionToken })).body)
        .find((i) => i.id === 'extra_slot');
    const unchanged = async (slots: number) => {
      const p = await profile(api(), who);
      assert.equal(p.credit, 5000);
      assert.equal(p.availableSlot, slots);
      assert.equal(await count(api(), 'purchases', who.user.id), 0);
    };
    const name = 'Extra Server Slot';
    // The item says what it is for (migration 11).
    assert.match((await slotItem())?.description ?? '', /Each account can own one server/);

    // A free slot already waits for the one server.
    assert.deepEqual((await slotItem())?.purchaseLimit, { max: 0, reason: s.slotSpare(name) });
    const spare = await checkoutAs(api(), who, { cart: { extra_slot: 1, server_time_7d: 1 } });
    assert.equal(spare.status, 409);
    assert.deepEqual(spare.body, { error: s.slotSpare(name), code: 'slot_unusable' });
    await unchanged(1);

    // The server holds its slot (deleting it gives the slot back): another one could never be used.
    const serverName = `slot${api().dialect[0]}${process.pid % 10000}`;
    const created = await api().request('POST', `/users/${who.user.id}/server`, {
      token: who.sessionToken,
      body: { serverName },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.deepEqual((await slotItem())?.purchaseLimit, { max: 0, reason: s.slotWithServer(name) });
    const owning = await checkoutAs(api(), who, { cart: { extra_slot: 1 } });
    assert.equal(owning.status, 409);
    assert.equal(owning.body.error, s.slotWithServer(name));
    await unchanged(0);

    // Neither a server nor a free slot: one slot is of use, not two.
    const deleted = await api().request('DELETE', `/users/${who.user.id}/server`, { token: who.sessionToken });
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    await noSlots(api(), who);
    assert.deepEqual((await slotItem())?.purchaseLimit, { max: 1, reason: s.slotOnlyOne(name) });
    const two = await checkoutAs(api(), who, { cart: { extra_slot: 2 } });
    assert.equal(two.status, 409);
    assert.equal(two.body.error, s.slotOnlyOne(name));
    await unchanged(0);
    const one = await checkoutAs(api(), who, { cart: { extra_slot: 1 } });
    assert.equal(one.status, 200, JSON.stringify(one.body));
    assert.equal((await profile(api(), who)).availableSlot, 1);
    assert.deepEqual((await slotItem())?.purchaseLimit, { max: 0, reason: s.slotSpare(name) });
  });

  it('is for the own, registered, unbanned account that is not a collaborator', async () => {
    const other = await signInRegistered(api());
    await give(api(), other, 1000);
    const cart = { cart: { server_time_7d: 1 } };
    const notMine = await checkoutAs(api(), buyer, cart, undefined, other.user.id);
    assert.equal(notMine.status, 403);
    assert.equal(notMine.body.error, messages.missingPermission);

    const unregistered = await signIn(api());
    const res = await api().request('POST', `/users/${unregistered.user.id}/shop/checkout`, {
      token: unregistered.sessionToken,
      body: cart,
    });
    assert.equal(res.status, 403);
    assert.equal(res.body.error, messages.notRegistered);

    const banned = await signInRegistered(api());
    await give(api(), banned, 1000);
    await sql(api(), 'UPDATE users SET is_banned = 1 WHERE id = ?', [banned.user.id]);
    const refused = await checkoutAs(api(), banned, cart);
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error, messages.bannedPage);

    // A collaborator on someone's server: owner only.
    const owner = await signInRegistered(api());
    const server = `sh${api().dialect[0]}${process.pid % 10000}`;
    const created = await api().request('POST', `/users/${owner.user.id}/server`, {
      token: owner.sessionToken,
      body: { serverName: server },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const helper = await signInRegistered(api());
    await give(api(), helper, 1000);
    const serverRow = await api().ctx.db.get<{ id: string }>('SELECT id FROM servers WHERE owner_id = ?', [
      owner.user.id,
    ]);
    await sql(api(), 'INSERT INTO collaborators (server_id, user_id, permissions, created_at) VALUES (?, ?, ?, ?)', [
      serverRow?.id ?? '',
      helper.user.id,
      '["server:actions"]',
      api().clock.now,
    ]);
    const collab = await checkoutAs(api(), helper, cart);
    assert.equal(collab.status, 403);
    assert.equal(collab.body.error, s.ownerOnly);
    for (const who of [other, banned, helper]) assert.equal((await profile(api(), who)).credit, 1000);
    for (const who of [banned, helper]) assert.equal(await count(api(), 'purchases', who.user.id), 0);
  });

  it('refuses everyone but admins while the shop is disabled, before reading the body', async () => {
    const who = await signInRegistered(api());
    const admin = await signInRegistered(api());
    await sql(api(), 'UPDATE users SET is_admin = 1 WHERE id = ?', [admin.user.id]);
    for (const s of [who, admin]) await give(api(), s, 500);
    await sql(api(), "INSERT INTO settings (key, value) VALUES ('disableShop', 'true')");
    try {
      // Not even JSON: refused for the switch, not for the body.
      const res = await api().request('POST', `/users/${who.user.id}/shop/checkout`, {
        token: who.sessionToken,
        headers: { 'content-type': 'application/json' },
      });
      const raw = await fetch(`${api().url}/users/${who.user.id}/shop/checkout`, {
        method: 'POST',
        headers: { authorization: `Bearer ${who.sessionToken}`, 'content-type': 'application/json' },
        body: '{not json',
      });
      assert.equal(raw.status, 403);
      assert.equal((await raw.json()).error, messages.featureDisabled);
      assert.equal(res.status, 403);
      const blocked = await checkoutAs(api(), who, { cart: { server_time_7d: 1 } });
      assert.equal(blocked.body.error, messages.featureDisabled);
      const bypass = await checkoutAs(api(), admin, { cart: { server_time_7d: 1 } });
      assert.equal(bypass.status, 200, JSON.stringify(bypass.body));
      // The listing stays readable (the page shows the lock).
      assert.equal((await api().request('GET', '/shop/items', { token: who.sessionToken })).status, 200);
    } finally {
      await sql(api(), "DELETE FROM settings WHERE key = 'disableShop'");
    }
    assert.equal((await checkoutAs(api(), who, { cart: { server_time_7d: 1 } })).status, 200);
  });

  it('charges a double submit with one Idempotency-Key once', async () => {
    const who = await signInRegistered(api());
    await give(api(), who, 1000);
    await noSlots(api(), who);
    const headers = { 'idempotency-key': `double-${who.user.id}` };
    const body = { cart: { extra_slot: 1 } };
    const answers = await Promise.all([checkoutAs(api(), who, body, headers), checkoutAs(api(), who, body, headers)]);
    assert.ok(answers.some((a) => a.status === 200));
    for (const a of answers) assert.ok(a.status === 200 || a.status === 409, JSON.stringify(a.body));
    // A retry after both settled gets the stored answer, not a second purchase.
    const replay = await checkoutAs(api(), who, body, headers);
    assert.equal(replay.status, 200);
    assert.equal(replay.body.credit, 500);
    assert.equal((await profile(api(), who)).credit, 500);
    assert.equal(await count(api(), 'purchases', who.user.id), 1);
  });

  it('never lets parallel checkouts without keys drive credit below zero', async () => {
    const who = await signInRegistered(api());
    await give(api(), who, 350); // three 100-credit packs fit, a fourth does not
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => checkoutAs(api(), who, { cart: { server_time_7d: 1 } })),
    );
    const ok = answers.filter((a) => a.status === 200);
    assert.equal(ok.length, 3, JSON.stringify(answers.map((a) => a.status)));
    for (const a of answers.filter((x) => x.status !== 200)) {
      assert.equal(a.status, 409);
      assert.equal(a.body.error, s.notEnoughCredits);
    }
    assert.equal((await profile(api(), who)).credit, 50);
    assert.equal(await count(api(), 'purchases', who.user.id), 3);
  });

  it('checkouts racing credit debits and grants: every change applies whole, and the ledger adds up', async () => {
    const who = await signInRegistered(api());
    await give(api(), who, 500);
    await noSlots(api(), who);
    const slotsBefore = (await profile(api(), who)).availableSlot;
    const grant = (amount: number) =>
      grantCredits(api().ctx.db, who.user.id, amount, { reason: 'cli', actor: 'cli' }, api().clock.now).then(
        () => 'granted',
        (e: { status?: number }) => e.status,
      );
    const results = await Promise.all([
      ...Array.from({ length: 4 }, () =>
        checkoutAs(api(), who, { cart: { extra_slot: 1 } }).then((r) => (r.status === 200 ? 'bought' : r.status)),
      ),
      ...Array.from({ length: 4 }, () => grant(-200)),
      grant(300),
    ]);
    for (const r of results) assert.ok(['bought', 'granted', 409].includes(r as string | number), String(r));
    const bought = results.slice(0, 4).filter((r) => r === 'bought').length;
    const debits = results.slice(4, 8).filter((r) => r === 'granted').length;
    const credit = (await profile(api(), who)).credit;
    assert.ok(credit >= 0);
    assert.equal(credit, 800 - bought * 500 - debits * 200);
    assert.equal((await profile(api(), who)).availableSlot, slotsBefore + bought);
    assert.ok(bought <= 1, 'one slot is all an account without a server can use, however the checkouts race');
    const ledger = await api().ctx.db.all<{ delta: number }>('SELECT delta FROM credit_ledger WHERE user_id = ?', [
      who.user.id,
    ]);
    assert.equal(
      ledger.reduce((sum, l) => sum + Number(l.delta), 0),
      credit,
    );
  });

  it('rate-limits checkouts per user', async () => {
    const who = await signInRegistered(api());
    const statuses: number[] = [];
    for (let i = 0; i <= CHECKOUT_RATE_LIMIT.max; i++)
      statuses.push((await checkoutAs(api(), who, { cart: {} })).status);
    assert.deepEqual(statuses.slice(0, -1), Array(CHECKOUT_RATE_LIMIT.max).fill(400));
    assert.equal(statuses.at(-1), 429);
    // Another user is not affected.
    assert.equal((await checkoutAs(api(), buyer, { cart: {} })).status, 400);
  });

  it('answers 503 at the payment webhook while payments are not configured', async () => {
    const res = await api().request('POST', '/payments/stripe/webhook', { body: { id: 'evt_1' } });
    assert.equal(res.status, 503);
    assert.equal(res.body.error, creditMessages.paymentsUnconfigured);
  });
});
