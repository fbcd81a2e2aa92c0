import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import {
  CREDIT_CHECKOUT_RATE_LIMIT,
  creditCheckoutResponseSchema,
  creditHistorySchema,
  creditOfferSchema,
  DEFAULT_CREDITS_HOW_TO,
  creditPackMessages as m,
} from '@canopy/contract';
import Stripe from 'stripe';
import { signIn, signInAdmin, signInRegistered } from './support/factories.ts';
import { FakeStripe } from './support/fake-stripe.ts';
import { describeEachDatabase, type TestApi } from './support/harness.ts';

const SECRET_KEY = 'sk_test_canopy_packs';
const WEBHOOK_SECRET = 'whsec_test_canopy_packs';
const stripe = await new FakeStripe(SECRET_KEY).start();
after(() => stripe.stop());

const pack = { name: 'Starter', credits: 500, price: 499, currency: 'USD', active: true, sortOrder: 1 };

const balance = async (api: TestApi, id: string) =>
  Number((await api.ctx.db.get<{ credit: number }>('SELECT credit FROM users WHERE id = ?', [id]))?.credit);

const activity = (api: TestApi, action: string) =>
  api.ctx.db.all<{ actor_type: string; details: string }>(
    'SELECT actor_type, details FROM activity_logs WHERE action = ?',
    [action],
  );

/** Stripe's checkout.session.completed for a session the stand-in created, paid, signed with the webhook secret. */
async function deliverPaid(api: TestApi, session: Record<string, unknown>, eventId: string) {
  const payload = JSON.stringify({
    id: eventId,
    object: 'event',
    type: 'checkout.session.completed',
    data: { object: { ...session, payment_status: 'paid' } },
  });
  const signature = Stripe.webhooks.generateTestHeaderString({
    payload,
    secret: WEBHOOK_SECRET,
    timestamp: Math.floor(api.clock.now / 1000),
  });
  const res = await fetch(`${api.url}/payments/stripe/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    body: payload,
  });
  return res.status;
}

describeEachDatabase(
  'Credit packs with Stripe',
  (api) => {
    let admin: Awaited<ReturnType<typeof signInAdmin>>;
    let packId: string;

    it('lets only admins with settings:manage write packs, settings:view read them, and logs each write', async () => {
      admin = await signInAdmin(api(), ['settings:view', 'settings:manage']);
      const viewer = await signInAdmin(api(), ['settings:view']);
      const user = await signInRegistered(api());
      const created = await api().request('POST', '/admin/credit-packs', { token: admin.sessionToken, body: pack });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.equal(created.body.pack.currency, 'usd');
      packId = created.body.pack.id;
      for (const token of [viewer.sessionToken, user.sessionToken]) {
        const refused = await api().request('POST', '/admin/credit-packs', { token, body: pack });
        assert.equal(refused.status, 403);
        const edit = await api().request('PUT', `/admin/credit-packs/${packId}`, {
          token,
          body: { ...pack, price: 1 },
        });
        assert.equal(edit.status, 403);
      }
      assert.equal((await api().request('GET', '/admin/credit-packs', { token: user.sessionToken })).status, 403);
      const listed = await api().request('GET', '/admin/credit-packs', { token: viewer.sessionToken });
      assert.equal(listed.status, 200);
      assert.equal(listed.body.stripeConfigured, true);
      assert.deepEqual(
        listed.body.packs.map((p: { id: string; price: number }) => [p.id, p.price]),
        [[packId, 499]],
      );
      const logged = await activity(api(), 'Credit pack created');
      assert.equal(logged.length, 1);
      assert.match(logged[0]?.details ?? '', /Starter: 500 credits for 499 usd/);
    });

    it('refuses a bad pack with a clear error and changes nothing', async () => {
      for (const body of [
        { ...pack, credits: 0 },
        { ...pack, price: 1.5 },
        { ...pack, currency: 'dollars' },
        { ...pack, name: ' ' },
      ]) {
        const res = await api().request('POST', '/admin/credit-packs', { token: admin.sessionToken, body });
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(typeof res.body.error, 'string');
      }
      const missing = await api().request('PUT', '/admin/credit-packs/no-such-pack', {
        token: admin.sessionToken,
        body: pack,
      });
      assert.equal(missing.status, 404);
      assert.equal(missing.body.error, m.unknownPack);
      const packs = await api().ctx.db.all('SELECT id FROM credit_packs');
      assert.equal(packs.length, 1);
    });

    it('opens a Checkout Session for the buyer, which the webhook credits once', async () => {
      const buyer = await signInRegistered(api());
      const offer = creditOfferSchema.parse(
        (await api().request('GET', '/credits/offer', { token: buyer.sessionToken })).body,
      );
      assert.deepEqual(
        offer.packs.map((p) => p.id),
        [packId],
      );
      const headers = { 'Idempotency-Key': `buy-${buyer.user.id}` };
      const path = `/users/${buyer.user.id}/credits/checkout`;
      const res = await api().request('POST', path, { token: buyer.sessionToken, body: { packId }, headers });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const opened = creditCheckoutResponseSchema.parse(res.body);
      const session = stripe.sessions.find((s) => s.id === opened.sessionId);
      assert.ok(session, 'the session was created at the Stripe stand-in');
      assert.equal(opened.url, session.url);
      assert.equal(session.form.mode, 'payment');
      assert.equal(session.form.client_reference_id, buyer.user.id);
      assert.equal(session.form['metadata[credits]'], '500');
      assert.equal(session.form['line_items[0][price_data][unit_amount]'], '499');
      assert.match(session.form.success_url ?? '', /\/renew\?credits=returned$/);
      assert.match(session.form.cancel_url ?? '', /\/renew\?credits=cancelled$/);

      // The same click retried: the same session, not a second one.
      const before = stripe.sessions.length;
      const retried = await api().request('POST', path, { token: buyer.sessionToken, body: { packId }, headers });
      assert.equal(retried.status, 200);
      assert.equal(retried.body.sessionId, opened.sessionId);
      assert.equal(stripe.sessions.length, before);

      const paid = stripe.answer(session);
      assert.equal(await deliverPaid(api(), paid, `evt_${opened.sessionId}_1`), 200);
      assert.equal(await deliverPaid(api(), paid, `evt_${opened.sessionId}_2`), 200);
      assert.equal(await balance(api(), buyer.user.id), 500);

      const history = creditHistorySchema.parse(
        (await api().request('GET', `/users/${buyer.user.id}/credit-history`, { token: buyer.sessionToken })).body,
      );
      assert.deepEqual(
        history.items.map((e) => [e.delta, e.balance, e.reason]),
        [[500, 500, 'payment']],
      );
      assert.equal(history.total, 1);
    });

    it('refuses an unknown or inactive pack, another account and a bad body, and opens no session', async () => {
      const buyer = await signInRegistered(api());
      const other = await signInRegistered(api());
      const before = stripe.sessions.length;
      const path = `/users/${buyer.user.id}/credits/checkout`;
      const unknown = await api().request('POST', path, { token: buyer.sessionToken, body: { packId: 'nope' } });
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.error, m.unknownPack);
      const bad = await api().request('POST', path, { token: buyer.sessionToken, body: { packId: '../x' } });
      assert.equal(bad.status, 400);
      const foreign = await api().request('POST', path, { token: other.sessionToken, body: { packId } });
      assert.equal(foreign.status, 403);

      const off = await api().request('PUT', `/admin/credit-packs/${packId}`, {
        token: admin.sessionToken,
        body: { ...pack, active: false },
      });
      assert.equal(off.status, 200);
      assert.equal((await activity(api(), 'Credit pack changed')).length, 1);
      const inactive = await api().request('POST', path, { token: buyer.sessionToken, body: { packId } });
      assert.equal(inactive.status, 409);
      assert.equal(inactive.body.error, m.inactivePack);
      const offer = await api().request('GET', '/credits/offer', { token: buyer.sessionToken });
      assert.deepEqual(offer.body.packs, []);
      assert.equal(stripe.sessions.length, before);
      await api().request('PUT', `/admin/credit-packs/${packId}`, { token: admin.sessionToken, body: pack });
    });

    it("answers 502 with a clear text when Stripe fails, and limits a user's checkouts", async () => {
      const buyer = await signInRegistered(api());
      const path = `/users/${buyer.user.id}/credits/checkout`;
      stripe.failWith = 500;
      try {
        const res = await api().request('POST', path, { token: buyer.sessionToken, body: { packId } });
        assert.equal(res.status, 502);
        assert.equal(res.body.error, m.stripeFailed);
      } finally {
        stripe.failWith = null;
      }
      const statuses: number[] = [];
      // Twice the limit and one: even if a window turns over mid-burst, one of them holds more than the limit.
      for (let i = 0; i < 2 * CREDIT_CHECKOUT_RATE_LIMIT.max + 1; i++)
        statuses.push((await api().request('POST', path, { token: buyer.sessionToken, body: { packId } })).status);
      assert.ok(statuses.includes(429), `a burst is cut off: ${statuses.join(',')}`);
    });

    it("shows a user's history to them and to admins with users:view only", async () => {
      const owner = await signInRegistered(api());
      const stranger = await signInRegistered(api());
      // An admin needs no GrowID of their own to read someone's history.
      const usersAdmin = await signInAdmin(api(), ['users:view']);
      const path = `/users/${owner.user.id}/credit-history`;
      assert.equal((await api().request('GET', path, { token: stranger.sessionToken })).status, 403);
      assert.equal((await api().request('GET', path, { token: admin.sessionToken })).status, 403);
      const seen = await api().request('GET', path, { token: usersAdmin.sessionToken });
      assert.equal(seen.status, 200);
      assert.deepEqual(seen.body, { items: [], total: 0, page: 1, pageSize: 10 });
      const badPage = await api().request('GET', `${path}?page=0`, { token: owner.sessionToken });
      assert.equal(badPage.status, 400);
    });
  },
  { STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, CANOPY_STRIPE_API_URL: stripe.url },
);

describeEachDatabase('Credits without Stripe', (api) => {
  it("says how credits are obtained (the operator's text) and refuses a checkout clearly", async () => {
    const admin = await signInAdmin(api(), ['settings:view', 'settings:manage']);
    const buyer = await signInRegistered(api());
    const offer = await api().request('GET', '/credits/offer', { token: buyer.sessionToken });
    assert.deepEqual(offer.body, { stripeConfigured: false, packs: [], howTo: DEFAULT_CREDITS_HOW_TO });

    const created = await api().request('POST', '/admin/credit-packs', { token: admin.sessionToken, body: pack });
    assert.equal(created.status, 201);
    const res = await api().request('POST', `/users/${buyer.user.id}/credits/checkout`, {
      token: buyer.sessionToken,
      body: { packId: created.body.pack.id },
    });
    assert.equal(res.status, 503);
    assert.equal(res.body.error, m.paymentsUnconfigured);

    const plain = await signIn(api());
    const refused = await api().request('PUT', '/admin/credit-packs/how-to', {
      token: plain.sessionToken,
      body: { howTo: 'x' },
    });
    assert.equal(refused.status, 403);
    const text = 'Buy credits from @owner on our Discord.';
    const saved = await api().request('PUT', '/admin/credit-packs/how-to', {
      token: admin.sessionToken,
      body: { howTo: text },
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    const tooLong = await api().request('PUT', '/admin/credit-packs/how-to', {
      token: admin.sessionToken,
      body: { howTo: 'x'.repeat(5000) },
    });
    assert.equal(tooLong.status, 400);
    assert.equal((await api().request('GET', '/credits/offer', { token: buyer.sessionToken })).body.howTo, text);
    assert.equal((await activity(api(), 'Credits how-to text changed')).length, 1);
  });
});
