import assert from 'node:assert/strict';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, it } from 'node:test';
import { dashboardTexts, defaultSettings, messages, redeemLabels } from '@canopy/contract';
import { apiCall, apiSignIn } from './support/api.ts';
import { ADMIN_USERNAME } from './support/app.ts';
import { signInAndRegister, signInWithDevProvider } from './support/browser.ts';
import { ownerWithServer, sidebar } from './support/pages.ts';
import { useApp } from './support/suite.ts';

const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

// Issue 21, items 13 and 15, on a phone: a locked sidebar link tells its reason on a tap (there is no hover),
// toasts leave the Menu button usable, and a server deleted while its owner was away is announced.
describe('on a phone (390x844)', () => {
  const suite = useApp();

  it('shows why a locked link is locked on a tap, and keeps Menu usable under toasts', async () => {
    const admin = await apiSignIn(suite.app.url, ADMIN_USERNAME);
    const setShop = (disableShop: boolean) =>
      apiCall(suite.app.url, admin.token, 'POST', '/admin/settings', { ...defaultSettings, disableShop });
    const { page } = await ownerWithServer(
      suite.browser,
      suite.app,
      { username: 'phoneowner', growId: 'PhoneOwner1', serverName: 'Pocket_Grove' },
      { context: phone },
    );
    assert.equal((await setShop(true)).status, 200);
    try {
      await page.reload();
      const menu = page.getByRole('button', { name: 'Menu' });
      await menu.tap();
      const locked = sidebar(page).locator('[data-locked="true"]', { hasText: 'Renew & Shop' });
      // force: Playwright waits for aria-disabled to go away; a finger does not, and the tap must still answer.
      await locked.tap({ force: true });
      const note = sidebar(page).getByTestId('locked-note');
      await note.getByText(messages.featureDisabled, { exact: true }).waitFor();
      assert.equal(await locked.getAttribute('aria-expanded'), 'true');
      await page.screenshot({ path: '/tmp/h6-phone-locked-note.png' });
      // A second tap folds the note away.
      await locked.tap({ force: true });
      await note.waitFor({ state: 'detached' });

      // A toast (a refused redeem) does not lie over the Menu button, which still opens and closes the menu.
      await sidebar(page).getByRole('link', { name: 'Redeem Code' }).tap();
      await page.getByRole('heading', { name: 'Redeem Code' }).waitFor();
      await page.getByRole('textbox', { name: redeemLabels.codeLabel }).fill('NO-SUCH-CODE');
      await page.getByRole('button', { name: redeemLabels.redeem, exact: true }).tap();
      const shown = page.locator('[data-toast-type="error"]').first();
      await shown.waitFor();
      const [toastBox, menuBox] = [await shown.boundingBox(), await menu.boundingBox()];
      assert.ok(toastBox && menuBox);
      assert.ok(
        toastBox.y >= menuBox.y + menuBox.height,
        `toast at ${toastBox.y}, Menu ends at ${menuBox.y + menuBox.height}`,
      );
      await page.screenshot({ path: '/tmp/h6-phone-toast.png' });
      await menu.tap();
      await page.getByRole('button', { name: 'Close' }).waitFor();
      assert.equal(await shown.isVisible(), true, 'the toast was still up when Menu took the tap');
    } finally {
      await setShop(false);
    }
  });

  it('unlocks the panel when a temporary ban ends, without a reload', async () => {
    const admin = await apiSignIn(suite.app.url, ADMIN_USERNAME);
    const page = await (await suite.browser.newContext(phone)).newPage();
    await signInAndRegister(page, suite.app.url, 'briefban', 'BriefBan1');
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    const me = await apiSignIn(suite.app.url, 'briefban');
    // A ban of a few seconds, then the page's marker: it must be unlocked without a reload.
    const ban = await apiCall(suite.app.url, admin.token, 'POST', `/admin/users/${me.id}/ban`, {
      reason: 'Cooling off',
      duration: '15s',
    });
    assert.equal(ban.status, 200, JSON.stringify(ban.body));
    await page.reload();
    await page.getByTestId('banner-ban').waitFor();
    await page.evaluate(() => Object.assign(window, { __noReload: true }));
    await page.getByRole('button', { name: 'Menu' }).tap();
    await sidebar(page).locator('[data-locked="true"]', { hasText: 'World Manager' }).waitFor();

    // Nothing pushes the end of a ban: the page refetches the profile at its end by itself.
    await page.getByTestId('banner-ban').waitFor({ state: 'detached', timeout: 45_000 });
    await sidebar(page).getByRole('link', { name: 'World Manager' }).waitFor();
    assert.equal(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload), true);
  });

  it('tells the owner their server was deleted while they were away, by whom and when', async () => {
    const admin = await apiSignIn(suite.app.url, ADMIN_USERNAME);
    const { page } = await ownerWithServer(
      suite.browser,
      suite.app,
      { username: 'awayowner', growId: 'AwayOwner1', serverName: 'Gone_Grove' },
      { context: phone },
    );
    await page.getByTestId('server-name').getByText('Gone_Grove').waitFor();
    assert.equal(await page.getByTestId('banner-deleted').count(), 0);
    await page.close();

    const deleted = await apiCall(suite.app.url, admin.token, 'DELETE', '/admin/servers/Gone_Grove');
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));

    // Back later, in a new page: the dashboard says what happened.
    const back = await (await suite.browser.newContext(phone)).newPage();
    await signInWithDevProvider(back, suite.app.url, 'awayowner');
    const banner = back.getByTestId('banner-deleted');
    await banner.getByText('Your server was deleted.').waitFor();
    const details = (await back.getByTestId('deleted-details').textContent()) ?? '';
    assert.match(
      details,
      /^Gone_Grove was deleted on \d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}:\d{2}\. An administrator deleted it\.$/,
    );
    await back.getByRole('button', { name: 'Create Server' }).waitFor();
    assert.equal(
      await back.getByTestId('deleted-next').textContent(),
      `${dashboardTexts.deletedGone} ${dashboardTexts.deletedCreate}`,
    );
    await back.screenshot({ path: '/tmp/h6-phone-deleted.png', fullPage: true });
    await back.setViewportSize({ width: 1280, height: 800 });
    await back.screenshot({ path: '/tmp/h6-desktop-deleted.png' });
  });

  // Issue 21 item 13: the time ran out an hour ago and the shop is disabled when an admin deletes the server. The
  // notice may not invite to create (refused), nor count a grace period down for a server that is gone.
  it('after deleting the server of a run-out account, points to Redeem Code while the shop is disabled', async () => {
    const admin = await apiSignIn(suite.app.url, ADMIN_USERNAME);
    const setShop = (disableShop: boolean) =>
      apiCall(suite.app.url, admin.token, 'POST', '/admin/settings', { ...defaultSettings, disableShop });
    const { page, id } = await ownerWithServer(
      suite.browser,
      suite.app,
      { username: 'lapsedowner', growId: 'LapsedOwner1', serverName: 'Lapsed_Grove' },
      { context: phone },
    );
    const db = new DatabaseSync(join(suite.app.dataDir, 'canopy.db'));
    try {
      db.exec('PRAGMA busy_timeout = 5000');
      db.prepare('UPDATE users SET server_expires_at = ?, server_permanent = 0 WHERE id = ?').run(
        Date.now() - 3600 * 1000,
        id,
      );
    } finally {
      db.close();
    }
    assert.equal((await setShop(true)).status, 200);
    try {
      const deleted = await apiCall(suite.app.url, admin.token, 'DELETE', '/admin/servers/Lapsed_Grove');
      assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
      await page.reload();
      const next = page.getByTestId('deleted-next');
      const { before, link, after } = dashboardTexts.deletedRedeem;
      await next.waitFor();
      assert.equal(await next.textContent(), `${dashboardTexts.deletedGone} ${before} ${link} ${after}`);
      assert.equal(await page.getByTestId('deleted-redeem-link').getAttribute('href'), '/redeem-code');
      // No grace countdown for a server that no longer exists: Expired, and how to get time again.
      assert.equal(await page.getByTestId('server-time').textContent(), 'Expired');
      assert.equal(await page.getByTestId('server-time-hint').textContent(), dashboardTexts.noTimeRedeem);
      assert.equal(await page.getByTestId('banner-grace').count(), 0);
      const create = page.getByTestId('server-create');
      assert.equal(await create.isDisabled(), true);
      assert.equal(await create.getAttribute('title'), dashboardTexts.createNeedsCode);
      await page.screenshot({ path: '/tmp/h13-phone-deleted-redeem.png', fullPage: true });
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.screenshot({ path: '/tmp/h13-desktop-deleted-redeem.png' });
      // The link leads to the page where a code adds the time.
      await page.getByTestId('deleted-redeem-link').click();
      await page.getByRole('heading', { name: 'Redeem Code' }).waitFor();
    } finally {
      await setShop(false);
    }
  });
});
