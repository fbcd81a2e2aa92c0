import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { defaultSettings } from '@canopy/contract';
import { apiCall, apiSignIn, apiSignInRegistered } from './support/api.ts';
import { ADMIN_USERNAME } from './support/app.ts';
import { signInWithDevProvider } from './support/browser.ts';
import { sidebar } from './support/pages.ts';
import { useApp } from './support/suite.ts';

describe('maintenance mode and admin-only pages', () => {
  const suite = useApp();
  before(async () => {
    // Both users exist and are registered before the switch is thrown.
    for (const [name, growId] of [
      [ADMIN_USERNAME, 'AdminOne'],
      ['visitor', 'Visitor1'],
    ] as const)
      await apiSignInRegistered(suite.app.url, name, growId);
  });

  it('sends a non-admin away from /admin', async () => {
    const page = await (await suite.browser.newContext()).newPage();
    await signInWithDevProvider(page, suite.app.url, 'visitor');
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.goto(`${suite.app.url}/admin`);
    await page.waitForURL((u) => u.pathname === '/dashboard');
    assert.equal(await page.getByRole('link', { name: 'Admin Panel' }).count(), 0);
  });

  it('shows the maintenance page to a non-admin while an admin passes', async () => {
    const admin = await apiSignIn(suite.app.url, ADMIN_USERNAME);
    const on = await apiCall(suite.app.url, admin.token, 'POST', '/admin/settings', {
      ...defaultSettings,
      maintenance: true,
    });
    assert.equal(on.status, 200);
    try {
      const visitor = await (await suite.browser.newContext()).newPage();
      await signInWithDevProvider(visitor, suite.app.url, 'visitor');
      await visitor.getByRole('heading', { name: 'Under Maintenance' }).waitFor();
      assert.equal(await sidebar(visitor).count(), 0);

      const adminPage = await (await suite.browser.newContext()).newPage();
      await signInWithDevProvider(adminPage, suite.app.url, ADMIN_USERNAME);
      await adminPage.getByRole('heading', { name: 'Dashboard' }).waitFor();
      await sidebar(adminPage).getByRole('link', { name: 'Admin Panel' }).waitFor();
    } finally {
      await apiCall(suite.app.url, admin.token, 'POST', '/admin/settings', defaultSettings);
    }
  });
});
