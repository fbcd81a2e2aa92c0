import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { defaultSettings } from '@canopy/contract';
import type { Browser } from 'playwright-core';
import { apiCall, apiSignIn } from './support/api.ts';
import { ADMIN_USERNAME, type RunningApp, startApp } from './support/app.ts';
import { launchBrowser, signInWithDevProvider } from './support/browser.ts';

describe('maintenance mode and admin-only pages', () => {
  let app: RunningApp;
  let browser: Browser;
  before(async () => {
    app = await startApp();
    browser = await launchBrowser();
    // Both users exist and are registered before the switch is thrown.
    for (const [name, growId] of [
      [ADMIN_USERNAME, 'AdminOne'],
      ['visitor', 'Visitor1'],
    ] as const) {
      const s = await apiSignIn(app.url, name);
      const res = await apiCall(app.url, s.token, 'POST', '/register', {
        discordId: s.id,
        discordUsername: name,
        growId,
      });
      assert.equal(res.status, 201);
    }
  });
  after(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('sends a non-admin away from /admin', async () => {
    const page = await (await browser.newContext()).newPage();
    await signInWithDevProvider(page, app.url, 'visitor');
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.goto(`${app.url}/admin`);
    await page.waitForURL((u) => u.pathname === '/dashboard');
    assert.equal(await page.getByRole('link', { name: 'Admin Panel' }).count(), 0);
  });

  it('shows the maintenance page to a non-admin while an admin passes', async () => {
    const admin = await apiSignIn(app.url, ADMIN_USERNAME);
    const on = await apiCall(app.url, admin.token, 'POST', '/admin/settings', {
      ...defaultSettings,
      maintenance: true,
    });
    assert.equal(on.status, 200);
    try {
      const visitor = await (await browser.newContext()).newPage();
      await signInWithDevProvider(visitor, app.url, 'visitor');
      await visitor.getByRole('heading', { name: 'Under Maintenance' }).waitFor();
      assert.equal(await visitor.getByRole('navigation', { name: 'Main' }).count(), 0);

      const adminPage = await (await browser.newContext()).newPage();
      await signInWithDevProvider(adminPage, app.url, ADMIN_USERNAME);
      await adminPage.getByRole('heading', { name: 'Dashboard' }).waitFor();
      await adminPage.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin Panel' }).waitFor();
    } finally {
      await apiCall(app.url, admin.token, 'POST', '/admin/settings', defaultSettings);
    }
  });
});
