import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { type AdminUserDetail, adminBanMessages, adminPanelMessages, adminUserMessages } from '@canopy/contract';
import type { Page } from 'playwright-core';
import { apiCall, apiSignInRegistered } from './support/api.ts';
import { ADMIN_USERNAME } from './support/app.ts';
import { signInWithDevProvider } from './support/browser.ts';
import { toast } from './support/pages.ts';
import { useApp } from './support/suite.ts';

const DAY_MS = 86_400_000;

describe('admin Users tab', () => {
  const suite = useApp();
  let adminToken = '';
  const ids = { target: '', regular: '', otherAdmin: '' };

  before(async () => {
    adminToken = (await apiSignInRegistered(suite.app.url, ADMIN_USERNAME, 'AdminOne')).token;
    ids.target = (await apiSignInRegistered(suite.app.url, 'target', 'TargetGrow')).id;
    ids.regular = (await apiSignInRegistered(suite.app.url, 'regular', 'RegularGrow')).id;
    ids.otherAdmin = (await apiSignInRegistered(suite.app.url, 'helper', 'HelperGrow')).id;
    const promoted = await apiCall(suite.app.url, adminToken, 'POST', '/admin/admins', { discordId: ids.otherAdmin });
    assert.equal(promoted.status < 300, true, JSON.stringify(promoted.body));
  });

  const detail = async (id: string) => {
    const res = await apiCall(suite.app.url, adminToken, 'GET', `/admin/users/${id}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body as AdminUserDetail;
  };
  /** Server time left: until expiry once a server runs it, else the time waiting for the first server. */
  const timeLeftMs = (u: AdminUserDetail) => {
    const t = u.ServerTime.serverTime;
    return t.expiresAt ? Date.parse(t.expiresAt) - Date.now() : t.pendingMs;
  };
  const openUsersTab = async (page: Page, search: string) => {
    await signInWithDevProvider(page, suite.app.url, ADMIN_USERNAME);
    await page.getByRole('heading', { name: 'Dashboard' }).first().waitFor();
    await page.goto(`${suite.app.url}/admin?tab=users`);
    await page.getByTestId('admin-user-row').first().waitFor();
    await page.getByRole('searchbox', { name: 'Search users' }).fill(search);
  };

  it('finds a user by GrowID, adds server time, bans with a template and unbans', async () => {
    const page = await (await suite.browser.newContext()).newPage();
    await openUsersTab(page, 'TargetGrow');
    const row = page.locator(`[data-testid="admin-user-row"][data-id="${ids.target}"]`);
    // The search ran on the server: the target is the only row left.
    await page
      .getByTestId('admin-user-row')
      .filter({ hasNotText: 'TargetGrow' })
      .first()
      .waitFor({ state: 'detached' });
    await row.click();
    const dialog = page.locator('[data-testid="admin-user-dialog"][data-state="loaded"]');
    await dialog.waitFor();

    const before = timeLeftMs(await detail(ids.target));
    const time = dialog.getByTestId('admin-user-expiry');
    await time.getByLabel('Days').fill('5');
    await time.getByRole('button', { name: 'Apply' }).click();
    await toast(page, adminUserMessages.timeAdded(5, 'TargetGrow'));
    const grown = timeLeftMs(await detail(ids.target)) - before;
    assert.ok(grown > 5 * DAY_MS - 60_000 && grown <= 5 * DAY_MS, `server time grew by ${grown} ms`);

    const ban = dialog.getByTestId('admin-user-ban-section');
    await ban.getByRole('button', { name: /^Harassment/ }).click();
    assert.equal(await ban.getByLabel('Reason').inputValue(), 'Harassment');
    await ban.getByRole('button', { name: 'Ban user' }).click();
    await dialog.getByTestId('admin-user-ban').getByText('Harassment').waitFor();
    const banned = await detail(ids.target);
    assert.equal(banned.IsBanned, true);
    assert.equal(banned.BanInfo?.reason, 'Harassment');
    await page.locator(`[data-testid="admin-user-row"][data-id="${ids.target}"][data-banned="true"]`).waitFor();

    await dialog.getByTestId('admin-user-unban').click();
    await toast(page, adminPanelMessages.userUnbanned);
    await dialog.getByTestId('admin-user-ban').waitFor({ state: 'detached' });
    assert.equal((await detail(ids.target)).IsBanned, false);
  });

  it('bulk-bans a regular user and an admin: the user is banned, the admin refusal is its own error toast', async () => {
    const page = await (await suite.browser.newContext()).newPage();
    await openUsersTab(page, 'Grow');
    await page.getByRole('checkbox', { name: 'Select regular', exact: true }).check();
    await page.getByRole('checkbox', { name: 'Select helper', exact: true }).check();
    await page.getByTestId('admin-users-bulk').filter({ hasText: 'Bulk action (2)' }).click();
    const bulk = page.getByTestId('admin-users-bulk-dialog');
    await bulk.getByRole('button', { name: /^Spamming\/Flooding/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Apply' }).click();

    await toast(page, adminBanMessages.bulkDone(1, 1));
    // Named by GrowID, not by Discord ID.
    await toast(page, `HelperGrow: ${adminBanMessages.adminCannotBeBanned}`);
    // Success clears the selection: the bulk button goes away with the dialog.
    await bulk.waitFor({ state: 'detached' });
    await page.getByTestId('admin-users-bulk').waitFor({ state: 'detached' });
    const regular = await detail(ids.regular);
    assert.equal(regular.IsBanned, true);
    assert.equal(regular.BanInfo?.reason, 'Spamming/Flooding');
    assert.equal((await detail(ids.otherAdmin)).IsBanned, false);
  });
});
