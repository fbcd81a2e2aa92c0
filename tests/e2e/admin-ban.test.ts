import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { apiCall, apiSignIn, apiSignInRegistered } from './support/api.ts';
import { ADMIN_USERNAME } from './support/app.ts';
import { signInWithDevProvider } from './support/browser.ts';
import { sidebar } from './support/pages.ts';
import { useApp } from './support/suite.ts';

/** How long a signed-in panel may take to lock after the ban: the socket's notice, not a reload or a poll. */
const LOCK_TIMEOUT_MS = 15_000;

describe('an admin ban reaches a user who is signed in elsewhere', () => {
  const suite = useApp();
  let userId = '';
  before(async () => {
    await apiSignInRegistered(suite.app.url, ADMIN_USERNAME, 'AdminOne');
    userId = (await apiSignInRegistered(suite.app.url, 'banme', 'BanMe1')).id;
  });

  it("locks the user's panel within seconds, without a reload, and unlocks it on unban", async () => {
    const page = await (await suite.browser.newContext()).newPage();
    await signInWithDevProvider(page, suite.app.url, 'banme');
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    const worlds = sidebar(page).getByText('World Manager', { exact: true });
    assert.equal(await worlds.getAttribute('data-locked'), null);
    // A marker the page keeps until it reloads: the lock must come without one.
    await page.evaluate(() => Object.assign(window, { __noReload: true }));

    const admin = await apiSignIn(suite.app.url, ADMIN_USERNAME);
    const ban = await apiCall(suite.app.url, admin.token, 'POST', `/admin/users/${userId}/ban`, {
      reason: 'Spamming/Flooding',
      duration: '7d',
    });
    assert.equal(ban.status, 200, JSON.stringify(ban.body));

    await page.getByTestId('banner-ban').waitFor({ timeout: LOCK_TIMEOUT_MS });
    await sidebar(page).locator('[data-locked="true"]', { hasText: 'World Manager' }).waitFor();
    assert.equal(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload), true);

    const unban = await apiCall(suite.app.url, admin.token, 'POST', `/admin/users/${userId}/unban`);
    assert.equal(unban.status, 200, JSON.stringify(unban.body));
    await page.getByTestId('banner-ban').waitFor({ state: 'detached', timeout: LOCK_TIMEOUT_MS });
    await sidebar(page).getByRole('link', { name: 'World Manager' }).waitFor();
  });
});
