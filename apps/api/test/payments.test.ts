import assert from 'node:assert/strict';
import { it } from 'node:test';
import {
  creditMessages,
  MAX_CREDIT_BALANCE,
  MAX_CREDIT_CHANGE,
  STRIPE_WEBHOOK_BODY_LIMIT,
  webhookAckSchema,
} from '@canopy/contract';
import Stripe from 'stripe';
import { grantCredits } from '../src/payments/credits.service.ts';
import { creditsFor } from '../src/payments/payment-amount.ts';
import { signInRegistered } from './support/factories.ts';
import { describeEachDatabase, startApi, type TestApi } from './support/harness.ts';

const SECRET = 'whsec_test_canopy_secret';
let seq = 0;
let sessionSeq = 0;

/** A checkout.session.completed event as Stripe sends it (only the fields the seam reads, plus a few). */
function completed(session: Record<string, unknown>, id = `evt_${process.pid}_${++seq}`) {
  return JSON.stringify({
    id,
    object: 'event',
    type: 'checkout.session.completed',
    api_version: '2025-01-27',
    created: Math.floor(Date.now() / 1000),
    data: {
      object: {
        id: `cs_test_${process.pid}_${++sessionSeq}`,
        object: 'checkout.session',
        payment_status: 'paid',
        currency: 'usd',
        amount_total: 500,
        metadata: {},
        ...session,
      },
    },
  });
}

/** Posts raw bytes to the webhook, signed by `secret` at `timestamp` (seconds) unless a header is given. */
async function deliver(
  api: TestApi,
  payload: string,
  opts: { secret?: string; timestamp?: number; signature?: string | null; send?: string } = {},
) {
  const header =
    opts.signature === undefined
      ? Stripe.webhooks.generateTestHeaderString({
          payload,
          secret: opts.secret ?? SECRET,
          timestamp: opts.timestamp ?? Math.floor(api.clock.now / 1000),
        })
      : opts.signature;
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
  if (header !== null) headers['stripe-signature'] = header;
  const res = await fetch(`${api.url}/payments/stripe/webhook`, {
    method: 'POST',
    headers,
    body: opts.send ?? payload,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** The activity log's 'Payment not credited' entries of one Checkout Session. */
const notCredited = (api: TestApi, sessionId: string) =>
  api.ctx.db.all<{ actor_type: string; details: string }>(
    "SELECT actor_type, details FROM activity_logs WHERE action = 'Payment not credited' AND details LIKE ?",
    [`%${sessionId}%`],
  );

const balance = async (api: TestApi, id: string) =>
  Number((await api.ctx.db.get<{ credit: number }>('SELECT credit FROM users WHERE id = ?', [id]))?.credit);

const usd = { rate: 100, currency: 'usd' };

it('turns a session into credits: metadata.credits first, else the amount paid times the rate', () => {
  assert.deepEqual(creditsFor({ amount_total: 500, metadata: { credits: '250' } }, usd), { credits: 250 });
  assert.deepEqual(creditsFor({ amount_total: 500, metadata: { credits: ' 7 ' } }, usd), { credits: 7 });
  assert.deepEqual(creditsFor({ amount_total: 199, currency: 'usd' }, usd), { credits: 199 });
  assert.deepEqual(creditsFor({ amount_total: 199, currency: 'USD' }, { rate: 1, currency: 'usd' }), { credits: 1 });
  assert.equal(creditsFor({ amount_total: null, currency: 'usd' }, usd).credits, 0);
});

it("knows Stripe's zero-decimal currencies: a whole yen is 1, not 100", () => {
  const jpy = { rate: 2, currency: 'jpy' };
  assert.deepEqual(creditsFor({ amount_total: 500, currency: 'jpy' }, jpy), { credits: 1000 });
  assert.deepEqual(creditsFor({ amount_total: 500, currency: 'krw' }, { rate: 2, currency: 'krw' }), {
    credits: 1000,
  });
  // IDR has two decimals in Stripe's amounts, though the rupiah has no coins below 1.
  assert.deepEqual(creditsFor({ amount_total: 500, currency: 'idr' }, { rate: 2, currency: 'idr' }), {
    credits: 10,
  });
});

it('credits nothing from the amount of another currency than the configured one, unless metadata.credits names it', () => {
  const other = creditsFor({ amount_total: 500, currency: 'eur' }, usd);
  assert.equal(other.credits, 0);
  assert.match(other.reason ?? '', /currency/);
  assert.equal(creditsFor({ amount_total: 500 }, usd).credits, 0);
  assert.deepEqual(creditsFor({ amount_total: 500, currency: 'eur', metadata: { credits: '40' } }, usd), {
    credits: 40,
  });
});

it('never credits from a field of the wrong type or an unusable metadata.credits', () => {
  // Stripe's metadata values are strings and its amounts integers in the minor unit; anything else is not
  // Stripe's shape and must neither throw (a 500 makes Stripe retry forever) nor turn into credits. A
  // metadata.credits the operator set but that is no whole number is not guessed from the amount.
  const odd = (session: Record<string, unknown>) =>
    creditsFor({ currency: 'usd', ...session } as Parameters<typeof creditsFor>[0], usd);
  for (const credits of [250, '2.5', '-3', '0', '', 'ten', '1e3'])
    assert.equal(odd({ amount_total: 500, metadata: { credits } }).credits, 0, String(credits));
  assert.equal(odd({ amount_total: '500' }).credits, 0);
  assert.equal(odd({ amount_total: true }).credits, 0);
  assert.equal(odd({ amount_total: 12.7 }).credits, 0);
  assert.equal(odd({ amount_total: -500 }).credits, 0);
  assert.deepEqual(odd({ amount_total: 500, metadata: ['250'] }), { credits: 500 });
});

describeEachDatabase(
  'Stripe payment webhook',
  (api) => {
    it('credits a paid checkout once, from client_reference_id or metadata.discordId', async () => {
      const { user } = await signInRegistered(api());
      const payload = completed({ client_reference_id: user.id });
      const res = await deliver(api(), payload);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(webhookAckSchema.parse(res.body), { received: true });
      assert.equal(await balance(api(), user.id), 500);
      const ledger = await api().ctx.db.all<{ external_ref: string; reason: string; actor: string; delta: number }>(
        'SELECT external_ref, reason, actor, delta FROM credit_ledger WHERE user_id = ?',
        [user.id],
      );
      const sessionId = JSON.parse(payload).data.object.id;
      assert.deepEqual(
        ledger.map((l) => ({ ...l, delta: Number(l.delta) })),
        [{ external_ref: `stripe:${sessionId}`, reason: 'payment', actor: 'stripe', delta: 500 }],
      );

      // The same delivery again (Stripe retries): acknowledged, not credited twice.
      const replay = await deliver(api(), payload);
      assert.equal(replay.status, 200);
      assert.deepEqual(replay.body, { received: true });
      assert.equal(await balance(api(), user.id), 500);

      const viaMetadata = completed({ metadata: { discordId: user.id, credits: '42' } });
      assert.equal((await deliver(api(), viaMetadata)).status, 200);
      assert.equal(await balance(api(), user.id), 542);
    });

    it('credits a delayed payment method when its payment succeeds, not when the checkout completes unpaid', async () => {
      const { user } = await signInRegistered(api());
      const session = { client_reference_id: user.id, metadata: { credits: '120' } };
      // A bank debit: the checkout completes unpaid, and the payment succeeds days later in its own event.
      const unpaid = await deliver(api(), completed({ ...session, payment_status: 'unpaid' }));
      assert.equal(unpaid.status, 200);
      assert.equal(await balance(api(), user.id), 0);
      const succeeded = JSON.parse(completed(session));
      succeeded.type = 'checkout.session.async_payment_succeeded';
      const payload = JSON.stringify(succeeded);
      assert.equal((await deliver(api(), payload)).status, 200);
      assert.equal(await balance(api(), user.id), 120);
      assert.equal((await deliver(api(), payload)).status, 200);
      assert.equal(await balance(api(), user.id), 120);
      // A failed one credits nothing.
      const failed = JSON.parse(completed({ ...session, payment_status: 'unpaid' }));
      failed.type = 'checkout.session.async_payment_failed';
      assert.equal((await deliver(api(), JSON.stringify(failed))).status, 200);
      assert.equal(await balance(api(), user.id), 120);
    });

    it('credits a concurrent duplicate delivery once', async () => {
      const { user } = await signInRegistered(api());
      const payload = completed({ client_reference_id: user.id, metadata: { credits: '300' } });
      const answers = await Promise.all(Array.from({ length: 6 }, () => deliver(api(), payload)));
      for (const a of answers) assert.equal(a.status, 200, JSON.stringify(a.body));
      assert.equal(await balance(api(), user.id), 300);
      const rows = await api().ctx.db.all('SELECT id FROM credit_ledger WHERE user_id = ?', [user.id]);
      assert.equal(rows.length, 1);
    });

    it('refuses a bad, missing or old signature and a tampered body with 400, crediting nothing', async () => {
      const { user } = await signInRegistered(api());
      const payload = completed({ client_reference_id: user.id });
      const tampered = payload.replace('"amount_total":500', '"amount_total":500000');
      assert.notEqual(tampered, payload);
      const refusals = [
        await deliver(api(), payload, { secret: 'whsec_someone_else' }),
        await deliver(api(), payload, { signature: null }),
        await deliver(api(), payload, { signature: 't=1,v1=deadbeef' }),
        await deliver(api(), payload, { timestamp: Math.floor(api().clock.now / 1000) - 3600 }),
        await deliver(api(), payload, { send: tampered }),
      ];
      for (const r of refusals) {
        assert.equal(r.status, 400);
        assert.equal(r.body.error, creditMessages.badSignature);
      }
      assert.equal(await balance(api(), user.id), 0);
      // The genuine delivery still goes through afterwards.
      assert.equal((await deliver(api(), payload)).status, 200);
      assert.equal(await balance(api(), user.id), 500);
    });

    it('acknowledges what it cannot apply: unknown account, unpaid, other event types', async () => {
      const { user } = await signInRegistered(api());
      const before = Number((await api().ctx.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM credit_ledger'))?.n);
      const unknown = await deliver(api(), completed({ client_reference_id: '123456789012345678' }));
      assert.equal(unknown.status, 200);
      assert.deepEqual(unknown.body, { received: true });
      const unpaid = await deliver(api(), completed({ client_reference_id: user.id, payment_status: 'unpaid' }));
      assert.equal(unpaid.status, 200);
      const other = JSON.stringify({
        id: `evt_other_${process.pid}`,
        object: 'event',
        type: 'payment_intent.succeeded',
        data: { object: { id: 'pi_1', object: 'payment_intent', amount: 500 } },
      });
      assert.equal((await deliver(api(), other)).status, 200);
      const noAccount = await deliver(api(), completed({}));
      assert.equal(noAccount.status, 200);
      assert.equal(await balance(api(), user.id), 0);
      const after = Number((await api().ctx.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM credit_ledger'))?.n);
      assert.equal(after, before);
    });

    it('acknowledges a signed event of an odd shape without a 500, crediting nothing', async () => {
      const { user } = await signInRegistered(api());
      const odd = [
        JSON.stringify({ id: `evt_null_${process.pid}`, type: 'checkout.session.completed', data: null }),
        JSON.stringify({ id: `evt_nobj_${process.pid}`, type: 'checkout.session.completed', data: { object: null } }),
        completed({ client_reference_id: { id: user.id } }),
        // NUL cannot even be compared on PostgreSQL: no account is named so.
        completed({ client_reference_id: `${user.id}\u0000` }),
        completed({ metadata: { discordId: `\u0000${user.id}` } }),
        completed({ client_reference_id: user.id, metadata: { credits: 250 } }),
        completed({ client_reference_id: user.id, amount_total: '500' }),
        completed({ client_reference_id: user.id, amount_total: true }),
        // No event id: nothing to credit it once under.
        JSON.stringify({
          type: 'checkout.session.completed',
          data: { object: { payment_status: 'paid', client_reference_id: user.id, amount_total: 500 } },
        }),
      ];
      for (const payload of odd) {
        const res = await deliver(api(), payload);
        assert.equal(res.status, 200, `${payload}: ${JSON.stringify(res.body)}`);
        assert.deepEqual(res.body, { received: true });
      }
      // A numeric metadata.credits is unusable: nothing is guessed from the amount paid.
      assert.equal(await balance(api(), user.id), 0);
    });

    it('refuses a grant past the largest balance on both databases (409), changing nothing', async () => {
      const { user } = await signInRegistered(api());
      const grant = (amount: number) =>
        grantCredits(api().ctx.db, user.id, amount, { reason: 'cli', actor: 'cli' }, api().clock.now);
      await grant(MAX_CREDIT_CHANGE);
      await grant(MAX_CREDIT_CHANGE);
      await assert.rejects(grant(MAX_CREDIT_CHANGE), (e: { status?: number; message?: string }) => {
        assert.equal(e.status, 409);
        assert.equal(e.message, creditMessages.balanceTooHigh);
        return true;
      });
      assert.equal(await balance(api(), user.id), 2 * MAX_CREDIT_CHANGE);
      // Up to the bound itself is fine.
      const rest = MAX_CREDIT_BALANCE - 2 * MAX_CREDIT_CHANGE;
      assert.deepEqual(await grant(rest), { status: 'granted', balance: MAX_CREDIT_BALANCE });
      // A payment past it: Stripe's retries come within days and could not change that, so it is
      // acknowledged and left to an admin through the activity log.
      const payload = completed({ client_reference_id: user.id, metadata: { credits: '5' } });
      const payment = await deliver(api(), payload);
      assert.equal(payment.status, 200);
      assert.equal(await balance(api(), user.id), MAX_CREDIT_BALANCE);
      const [entry] = await notCredited(api(), JSON.parse(payload).data.object.id);
      assert.match(entry?.details ?? '', /balance/);
    });

    it('credits one Checkout Session once, whichever of its events arrives (completed paid, then async succeeded)', async () => {
      const { user } = await signInRegistered(api());
      const first = JSON.parse(completed({ client_reference_id: user.id, metadata: { credits: '70' } }));
      const second = JSON.parse(completed({ client_reference_id: user.id, metadata: { credits: '70' } }));
      second.type = 'checkout.session.async_payment_succeeded';
      second.data.object.id = first.data.object.id;
      assert.notEqual(first.id, second.id);
      assert.equal((await deliver(api(), JSON.stringify(first))).status, 200);
      assert.equal((await deliver(api(), JSON.stringify(second))).status, 200);
      assert.equal(await balance(api(), user.id), 70);
      // Both at once: still once.
      const a = JSON.parse(completed({ client_reference_id: user.id, metadata: { credits: '5' } }));
      const b = { ...a, id: `${a.id}_b`, type: 'checkout.session.async_payment_succeeded' };
      await Promise.all([deliver(api(), JSON.stringify(a)), deliver(api(), JSON.stringify(b))]);
      assert.equal(await balance(api(), user.id), 75);
    });

    it('logs a paid session it cannot credit to the activity log, and acknowledges it', async () => {
      const { user } = await signInRegistered(api());
      const cases: { session: Record<string, unknown>; reason: RegExp }[] = [
        { session: { client_reference_id: user.id, currency: 'eur', amount_total: 900 }, reason: /currency/ },
        { session: { client_reference_id: user.id, metadata: { credits: 'lots' } }, reason: /metadata\.credits/ },
        { session: { client_reference_id: '123456789012345678' }, reason: /account/ },
        // The buyer's own text (a Payment Link's URL) reaches the admin panel without bidi overrides.
        { session: { client_reference_id: '\u202e876543210987654321' }, reason: /account 876543210987654321:/ },
        { session: {}, reason: /account/ },
      ];
      for (const { session, reason } of cases) {
        const payload = JSON.parse(completed(session));
        const res = await deliver(api(), JSON.stringify(payload));
        assert.equal(res.status, 200, JSON.stringify(res.body));
        const entries = await notCredited(api(), payload.data.object.id);
        assert.equal(entries.length, 1, JSON.stringify(session));
        const [entry] = entries;
        assert.equal(entry?.actor_type, 'System');
        assert.ok(entry?.details.includes(payload.id), entry?.details);
        const o = payload.data.object;
        assert.ok(entry?.details.includes(`${o.amount_total} ${o.currency}`), entry?.details);
        assert.match(entry?.details ?? '', reason);
      }
      assert.equal(await balance(api(), user.id), 0);
      // A credited payment and an unpaid one write no such entry.
      const paid = JSON.parse(completed({ client_reference_id: user.id }));
      await deliver(api(), JSON.stringify(paid));
      const unpaid = JSON.parse(completed({ client_reference_id: user.id, payment_status: 'unpaid' }));
      await deliver(api(), JSON.stringify(unpaid));
      assert.equal((await notCredited(api(), paid.data.object.id)).length, 0);
      assert.equal((await notCredited(api(), unpaid.data.object.id)).length, 0);
    });

    it('bounds the body and refuses a body that is not JSON', async () => {
      const big = await deliver(api(), 'x'.repeat(STRIPE_WEBHOOK_BODY_LIMIT + 1));
      assert.equal(big.status, 413);
      const res = await fetch(`${api().url}/payments/stripe/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain', 'stripe-signature': 't=1,v1=00' },
        body: 'hello',
      });
      // Stripe always sends JSON; other bytes never reach the verifier.
      assert.equal(res.status, 400);
      assert.equal((await res.json()).error, creditMessages.badSignature);
    });

    it('grants through the service: a repeated external ref is a duplicate, a debit never goes below zero', async () => {
      const { user } = await signInRegistered(api());
      const db = api().ctx.db;
      const now = api().clock.now;
      const grant = { reason: 'admin', actor: 'tester', externalRef: `ref-${user.id}` };
      assert.deepEqual(await grantCredits(db, user.id, 50, grant, now), { status: 'granted', balance: 50 });
      assert.deepEqual(await grantCredits(db, user.id, 50, grant, now), { status: 'duplicate' });
      await assert.rejects(grantCredits(db, user.id, -51, { reason: 'admin', actor: 'tester' }, now), {
        message: creditMessages.belowZero,
      });
      await assert.rejects(grantCredits(db, user.id, 0, { reason: 'admin', actor: 'tester' }, now), {
        message: creditMessages.amountInvalid,
      });
      await assert.rejects(grantCredits(db, '123456789012345678', 5, { reason: 'admin', actor: 'tester' }, now), {
        message: creditMessages.unknownUser,
      });
      assert.deepEqual(await grantCredits(db, user.id, -20, { reason: 'admin', actor: 'tester' }, now), {
        status: 'granted',
        balance: 30,
      });
    });
  },
  { STRIPE_WEBHOOK_SECRET: SECRET },
);

describeEachDatabase(
  'Stripe payment webhook in yen',
  (api) => {
    it('credits a whole yen as one unit and ignores a payment in dollars', async () => {
      const { user } = await signInRegistered(api());
      await deliver(api(), completed({ client_reference_id: user.id, currency: 'jpy', amount_total: 300 }));
      assert.equal(await balance(api(), user.id), 600);
      await deliver(api(), completed({ client_reference_id: user.id, currency: 'usd', amount_total: 300 }));
      assert.equal(await balance(api(), user.id), 600);
    });
  },
  { STRIPE_WEBHOOK_SECRET: SECRET, CANOPY_PAYMENT_CURRENCY: 'JPY', CANOPY_CREDITS_PER_CURRENCY_UNIT: '2' },
);

it('answers an unconfigured webhook with a text that names no setting', async () => {
  const api = await startApi('sqlite');
  try {
    const res = await api.request('POST', '/payments/stripe/webhook', { body: { id: 'evt_1' } });
    assert.equal(res.status, 503);
    assert.equal(res.body.error, 'Payments are not configured.');
    assert.equal(creditMessages.paymentsUnconfigured, 'Payments are not configured.');
  } finally {
    await api.close();
  }
});
