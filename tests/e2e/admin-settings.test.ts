import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { type AdminStats, adminOverviewMessages, adminPanelMessages, defaultSettings } from '@canopy/contract';
import type { Page } from 'playwright-core';
import { adminPanel } from './support/admin.ts';
import { apiCall, apiSignIn, apiSignInRegistered } from './support/api.ts';
import { ADMIN_USERNAME } from './support/app.ts';
import { signInWithDevProvider } from './support/browser.ts';
import { toast } from './support/pages.ts';
import { useApp } from './support/suite.ts';

const USERS = [
  [ADMIN_USERNAME, 'AdminOne'],
  ['visitor', 'Visitor1'],
  ['player2', 'PlayerTwo'],
] as const;

/** Flips the maintenance switch of the Settings tab, saves, and waits for the success toast. */
async function saveMaintenance(page: Page, on: boolean) {
  const toggle = page.getByRole('switch', { name: 'Maintenance mode' });
  assert.equal(await toggle.getAttribute('aria-checked'), String(!on));
  const save = page.getByRole('button', { name: adminOverviewMessages.settingsSave, exact: true });
  assert.equal(await save.isDisabled(), true, 'Save is disabled until something changed');
  await toggle.click();
  await save.click();
  await toast(page, adminPanelMessages.settingsSaved);
  assert.equal(await page.getByRole('switch', { name: 'Maintenance mode' }).getAttribute('aria-checked'), String(on));
}

describe('admin dashboard figures and the settings tab', () => {
  const suite = useApp();
  let adminToken = '';
  before(async () => {
    for (const [name, growId] of USERS) await apiSignInRegistered(suite.app.url, name, growId);
    adminToken = (await apiSignIn(suite.app.url, ADMIN_USERNAME)).token;
  });

  it('shows the four figures with the number of users', async () => {
    const stats = await apiCall(suite.app.url, adminToken, 'GET', '/admin/stats');
    assert.equal(stats.status, 200);
    assert.equal((stats.body as AdminStats).totalUsers, USERS.length);

    const page = await adminPanel(suite, 'dashboard');
    const users = page.getByTestId('admin-stat-totalUsers');
    await users.getByText(String(USERS.length), { exact: true }).waitFor();
    assert.equal(await users.getByText('Total Users', { exact: true }).count(), 1);
    for (const key of ['totalServers', 'onlineServers', 'activePlayers'])
      assert.equal((await page.getByTestId(`admin-stat-${key}`).locator('dd').textContent())?.trim(), '0');
    const auto = page.getByRole('switch', { name: adminOverviewMessages.autoRefresh });
    assert.equal(await auto.getAttribute('aria-checked'), 'true', 'auto refresh is on by default');
  });

  it('maintenance saved in the browser locks a user out while the admin keeps working', async () => {
    const visitor = await (await suite.browser.newContext()).newPage();
    await signInWithDevProvider(visitor, suite.app.url, 'visitor');
    await visitor.getByRole('heading', { name: 'Dashboard' }).waitFor();

    const admin = await adminPanel(suite, 'settings');
    try {
      await maintenanceRoundTrip(suite, admin, visitor, adminToken);
    } finally {
      await apiCall(suite.app.url, adminToken, 'POST', '/admin/settings', defaultSettings);
    }
  });
});

/** Maintenance on from the browser, the user locked out, the admin still at work; then off again. */
async function maintenanceRoundTrip(suite: ReturnType<typeof useApp>, admin: Page, visitor: Page, adminToken: string) {
  await saveMaintenance(admin, true);
  const saved = await apiCall(suite.app.url, adminToken, 'GET', '/admin/settings');
  const { version: _, ...stored } = saved.body as Record<string, unknown>;
  assert.deepEqual(stored, { ...defaultSettings, maintenance: true });

  await visitor.reload();
  await visitor.getByRole('heading', { name: 'Under Maintenance' }).waitFor();

  // The admin passes: a reload keeps the panel, the saved switch and the other tabs.
  await admin.reload();
  await admin.getByRole('switch', { name: 'Maintenance mode', checked: true }).waitFor();
  await admin.getByTestId('admin-sidebar').getByRole('button', { name: 'Users', exact: true }).click();
  await admin.locator('[data-testid="admin-tab"][data-tab="users"]').waitFor();

  // An unsaved switch survives opening another tab and coming back; then it is saved.
  const sidebar = admin.getByTestId('admin-sidebar');
  await sidebar.getByRole('button', { name: 'Settings', exact: true }).click();
  await admin.getByRole('switch', { name: 'Maintenance mode', checked: true }).click();
  await admin.getByText(adminOverviewMessages.settingsUnsaved).waitFor();
  await sidebar.getByRole('button', { name: 'Users', exact: true }).click();
  await admin.locator('[data-testid="admin-tab"][data-tab="users"]').waitFor();
  await sidebar.getByRole('button', { name: 'Settings', exact: true }).click();
  await admin.getByRole('switch', { name: 'Maintenance mode', checked: false }).waitFor();
  await admin.getByText(adminOverviewMessages.settingsUnsaved).waitFor();
  await admin.getByRole('button', { name: adminOverviewMessages.settingsSave, exact: true }).click();
  await toast(admin, adminPanelMessages.settingsSaved);
  assert.equal((await apiCall(suite.app.url, adminToken, 'GET', '/admin/settings')).body.maintenance, false);
  await visitor.reload();
  await visitor.getByRole('heading', { name: 'Dashboard' }).waitFor();
}
