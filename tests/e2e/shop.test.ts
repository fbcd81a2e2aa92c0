import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { defaultSettings, messages, shopMessages as s } from '@canopy/contract';
import type { Page } from 'playwright-core';
import { devUser } from '../../apps/api/src/dev-idp/dev-token.ts';
import { apiCall, apiCreateServer, apiSignIn, apiSignInRegistered } from './support/api.ts';
import { ADMIN_USERNAME, setAvailableSlots } from './support/app.ts';
import { open, registeredPage, sidebar, toast } from './support/pages.ts';
import { useApp } from './support/suite.ts';

const root = new URL('../../', import.meta.url).pathname;

describe('Renew & Shop', () => {
  const suite = useApp();

  /** Grants credits with the operator's CLI against the running app's database. */
  function grantWithCli(who: string, amount: number) {
    const run = spawnSync(process.execPath, ['scripts/credits.ts', 'grant', who, String(amount), 'e2e'], {
      cwd: root,
      env: { ...process.env, NODE_ENV: 'test', CANOPY_DATA_DIR: suite.app.dataDir, DATABASE_URL: '' },
      encoding: 'utf8',
    });
    assert.equal(run.status, 0, run.stderr);
    return run.stdout;
  }

  const item = (page: Page, id: string) => page.locator(`[data-testid="shop-item"][data-id="${id}"]`);
  const text = async (page: Page, testId: string) => (await page.getByTestId(testId).textContent())?.trim();

  it('buys items with credits and shows the new balance, the purchase and its effect', async () => {
    const page = await registeredPage(suite.browser, suite.app, 'shopper', 'Shopper1', {
      viewport: { width: 1280, height: 900 },
    });
    assert.match(grantWithCli('Shopper1', 1000), /balance 1000 credits/);
    // Neither a server nor a free slot: an Extra Server Slot is of use.
    setAvailableSlots(suite.app, devUser('shopper').id, 0);
    await page.reload();
    await open(page, s.title);
    await page.getByRole('heading', { name: s.title }).waitFor();
    await item(page, 'storage_upgrade_256').waitFor();
    assert.equal(await text(page, 'credit-balance'), s.credits(1000));
    assert.equal(
      await item(page, 'storage_upgrade_256').getByTestId('shop-item-icon').getAttribute('data-icon'),
      'storage',
    );
    assert.equal(await item(page, 'extra_slot').getByTestId('shop-item-icon').getAttribute('data-icon'), 'item');
    assert.equal(await item(page, 'extra_slot').getByTestId('shop-item-cost').textContent(), s.credits(500));

    // A one_time item goes in once.
    await item(page, 'storage_upgrade_256').getByRole('button', { name: s.addToCart }).click();
    await item(page, 'storage_upgrade_256').getByRole('button', { name: s.inCart }).click();
    await toast(page, s.alreadyInCart('Storage Upgrade +256 MB'));

    // One slot is all an account without a server or a free slot can use: the second is refused with why.
    const addSlot = item(page, 'extra_slot').getByRole('button', { name: s.addToCart });
    await addSlot.click();
    // The card says how many are in the cart (on a phone the cart is out of sight below the grid).
    await item(page, 'extra_slot').getByTestId('shop-item-in-cart').getByText(`${s.inCart} ×1`).waitFor();
    await addSlot.click();
    await toast(page, s.slotOnlyOne('Extra Server Slot'));
    assert.equal(await text(page, 'cart-total'), s.credits(700));
    // 30 days more are more than the balance: checkout is refused on the page.
    await item(page, 'server_time_30d').getByRole('button', { name: s.addToCart }).click();
    const checkout = page.getByTestId('cart').getByRole('button', { name: s.checkout });
    await page.getByTestId('cart-short').getByText(s.notEnoughCredits).waitFor();
    assert.equal(await text(page, 'cart-total'), s.credits(1050));
    assert.equal(await checkout.isDisabled(), true);
    await page.getByTestId('cart').getByRole('button', { name: 'One less 30 Days Server Time' }).click();
    assert.equal(await text(page, 'cart-total'), s.credits(700));
    await page.getByTestId('cart-short').waitFor({ state: 'detached' });
    await page.screenshot({ path: '/tmp/renew-page-cart.png', fullPage: true });

    await checkout.click();
    await toast(page, s.checkoutSucceeded(700, 300));
    await page.getByTestId('credit-balance').getByText(s.credits(300)).waitFor();
    await item(page, 'storage_upgrade_256').getByTestId('shop-item-purchased').getByText(s.purchased).waitFor();
    await page.getByTestId('cart').getByText(s.cartEmpty).waitFor();
    // Now a free slot waits for the one server: another slot would go unused, and the card says so.
    await item(page, 'extra_slot')
      .getByTestId('shop-item-unavailable')
      .getByText(s.slotSpare('Extra Server Slot'))
      .waitFor();
    assert.equal(await item(page, 'extra_slot').getByRole('button').count(), 0);
    await page.screenshot({ path: '/tmp/renew-page-bought.png', fullPage: true });

    // The effect: a slot (0 → 1) and 256 MB more storage (256 → 512) on the profile.
    await open(page, 'Profile');
    await page.getByRole('heading', { name: 'Profile' }).waitFor();
    const row = (label: string) =>
      page.locator('dl div', { has: page.getByText(label, { exact: true }) }).locator('dd');
    assert.equal(await row('Available Slots').textContent(), '1');
    assert.equal(await row('Credit').textContent(), '300');
    await page.getByText(/\/ 512MB/).waitFor();
  });

  it('locks the page for a non-admin while the shop is disabled', async () => {
    const admin = await apiSignIn(suite.app.url, ADMIN_USERNAME);
    const page = await registeredPage(suite.browser, suite.app, 'windowshopper', 'Window1');
    const set = (disableShop: boolean) =>
      apiCall(suite.app.url, admin.token, 'POST', '/admin/settings', { ...defaultSettings, disableShop });
    assert.equal((await set(true)).status, 200);
    try {
      await page.goto(`${suite.app.url}/renew`);
      await page.getByTestId('locked-reason').getByText(messages.featureDisabled).waitFor();
      assert.equal(await page.getByTestId('cart').count(), 0);
      // What still keeps a server alive while the shop is off: a server time code.
      await page.getByRole('main').getByRole('link', { name: 'Redeem Code' }).click();
      await page.getByRole('heading', { name: 'Redeem Code' }).waitFor();
      await page.goto(`${suite.app.url}/renew`);
      await page.getByTestId('locked-reason').waitFor();
      await page.screenshot({ path: '/tmp/h6-renew-locked.png' });
    } finally {
      await set(false);
    }
    await page.reload();
    await page.getByTestId('cart').waitFor();

    // A listing the api refuses (a 4xx is not retried) reads in place of the grid and as a toast (spec 8).
    await page.route('**/shop/items', (route) =>
      route.fulfill({
        status: 403,
        contentType: 'application/json',
        body: JSON.stringify({ error: 'Nope.', code: 'x' }),
      }),
    );
    await page.reload();
    await page.locator('[data-toast-type="error"]').getByText('Nope.', { exact: true }).waitFor();
    assert.equal(await text(page, 'shop-error'), 'Nope.');
    assert.equal(await page.getByTestId('shop-item').count(), 0);
  });

  it('shows a collaborator the owner-only text and no cart', async () => {
    const owner = await apiSignInRegistered(suite.app.url, 'shopowner', 'ShopOwner1');
    await apiCreateServer(suite.app, owner, 'Shop_Grove');
    const page = await registeredPage(suite.browser, suite.app, 'shophelper', 'ShopHelper1');
    const helper = await apiSignIn(suite.app.url, 'shophelper');
    const added = await apiCall(suite.app.url, owner.token, 'POST', `/users/${owner.id}/server/collaborators`, {
      discordId: helper.id,
      permissions: ['server:actions'],
    });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    await page.goto(`${suite.app.url}/renew`);
    await page.getByTestId('shop-owner-only').getByText(s.ownerOnly).waitFor();
    await item(page, 'extra_slot').waitFor();
    assert.equal(await page.getByTestId('cart').count(), 0);
    assert.equal(await item(page, 'extra_slot').getByRole('button').count(), 0);
    assert.equal(await sidebar(page).getByRole('link', { name: s.title }).count(), 0);
  });

  it("shows the spec's defaults when the api answers without an error field", async () => {
    const page = await registeredPage(suite.browser, suite.app, 'gatewayshopper', 'GateShop1');
    grantWithCli('GateShop1', 600);
    // A proxy's HTML error page: no JSON, so no 'error' field.
    const proxyError = { status: 502, contentType: 'text/html', body: '<html>Bad Gateway</html>' };
    await page.route('**/shop/checkout', (route) => route.fulfill(proxyError));
    await page.goto(`${suite.app.url}/renew`);
    await item(page, 'server_time_7d').getByRole('button', { name: s.addToCart }).click();
    await page.getByTestId('cart').getByRole('button', { name: s.checkout }).click();
    await toast(page, s.checkoutFailed);
    assert.equal(await page.getByTestId('cart-line').count(), 1, 'the cart is kept');

    await page.route('**/shop/items', (route) => route.fulfill(proxyError));
    await page.reload();
    await page.getByTestId('shop-error').getByText(s.fetchFailed, { exact: true }).waitFor();
    await page.locator('[data-toast-type="error"]').getByText(s.fetchFailed, { exact: true }).waitFor();
  });
});
