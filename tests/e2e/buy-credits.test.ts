import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { creditPackMessages as m, shopMessages as s } from '@canopy/contract';
import { FakeStripe } from '../../apps/api/test/support/fake-stripe.ts';
import { apiCall, apiSignIn } from './support/api.ts';
import { ADMIN_USERNAME } from './support/app.ts';
import { open, registeredPage } from './support/pages.ts';
import { useApp } from './support/suite.ts';

const SECRET_KEY = 'sk_test_canopy_e2e';
const stripe = await new FakeStripe(SECRET_KEY).start();
after(() => stripe.stop());

describe('Buy credits', () => {
  const suite = useApp({
    STRIPE_SECRET_KEY: SECRET_KEY,
    STRIPE_WEBHOOK_SECRET: 'whsec_test_canopy_e2e',
    CANOPY_STRIPE_API_URL: stripe.url,
  });

  it('sends a buyer to Stripe Checkout for the pack they chose', async () => {
    const admin = await apiSignIn(suite.app.url, ADMIN_USERNAME);
    for (const pack of [
      { name: 'Small', credits: 100, price: 199, currency: 'usd', active: true, sortOrder: 1 },
      { name: 'Big', credits: 1200, price: 999, currency: 'usd', active: true, sortOrder: 2 },
    ]) {
      const created = await apiCall(suite.app.url, admin.token, 'POST', '/admin/credit-packs', pack);
      assert.equal(created.status, 201, JSON.stringify(created.body));
    }
    const page = await registeredPage(suite.browser, suite.app, 'buyer', 'Buyer1');
    await open(page, s.title);
    const card = page.getByTestId('buy-credits');
    await card.getByLabel(/Big — 1200 credits/).check();
    await card.getByRole('button', { name: m.buyCredits }).click();
    await page.waitForURL(`${stripe.url}/c/pay/**`);
    const session = stripe.sessions.at(-1);
    assert.equal(page.url(), session?.url);
    assert.equal(session?.form['metadata[credits]'], '1200');
    assert.match(session?.form.success_url ?? '', /\/renew\?credits=returned$/);

    // Back from Stripe: the page says the payment is being confirmed.
    await page.goto(session?.form.success_url ?? '');
    await page.getByTestId('buy-credits-returned').getByText(m.purchaseReturned).waitFor();
  });
});
