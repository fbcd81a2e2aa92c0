import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { webRoutes } from '@canopy/contract';
import type { Page } from 'playwright-core';
import { signInWithDevProvider } from './support/browser.ts';
import { sidebar } from './support/pages.ts';
import { useApp } from './support/suite.ts';

describe('sign in, register and land in the shell', () => {
  const suite = useApp();

  const newPage = async (): Promise<Page> => (await suite.browser.newContext()).newPage();

  it('walks a new user from the login page through registration to the dashboard, and logs out', async () => {
    const page = await newPage();
    await page.goto(suite.app.url);
    for (const highlight of ['Instant Server Setup', 'Full Control Panel', 'Real-time Console'])
      await page.getByText(highlight).first().waitFor();
    const href = await page.getByRole('link', { name: /login with discord/i }).getAttribute('href');
    const authorize = new URL(href ?? '', suite.app.url);
    assert.equal(authorize.searchParams.get('response_type'), 'token');
    assert.equal(authorize.searchParams.get('scope'), 'identify email');
    assert.equal(authorize.searchParams.get('redirect_uri'), new URL(suite.app.url).origin);

    await signInWithDevProvider(page, suite.app.url, 'newplayer');
    await page.getByRole('heading', { name: 'Register your GrowID' }).waitFor();

    const register = page.getByRole('button', { name: 'Register', exact: true });
    assert.equal(await register.isDisabled(), true, 'empty field keeps submit disabled');
    await page.getByLabel('GrowID').fill('no way!');
    await page.getByText('GrowID must be 3-20 alphanumeric characters.').waitFor();
    assert.equal(await register.isDisabled(), true);

    await page.getByLabel('GrowID').fill('Sprout7');
    await register.click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(/cannot be changed later/).waitFor();
    await dialog.getByRole('button', { name: 'Yes, register' }).click();

    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.getByTestId('dashboard-growid').getByText('Sprout7').waitFor();
    assert.equal(new URL(page.url()).pathname, '/dashboard');

    const nav = sidebar(page);
    const labels = await nav.getByRole('link').allTextContents();
    const expected = webRoutes
      .filter((r) => r.access === 'registered' || r.access === 'non-collaborator')
      .map((r) => r.label);
    assert.deepEqual(
      labels.map((l) => l.trim()),
      expected,
      'links in the spec order; no Collaborators without a server, no Admin Panel for a non-admin',
    );
    assert.equal(await page.getByTestId('sidebar-username').textContent(), 'newplayer');
    assert.match((await page.getByTestId('sidebar-discriminator').textContent()) ?? '', /^#\d{4}$/);
    assert.equal((await page.getByTestId('sidebar-server').textContent())?.trim(), 'No server');

    // The session survives a reload (restored from encrypted storage).
    await page.reload();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();

    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await page.getByRole('link', { name: /login with discord/i }).waitFor();
    await page.goto(`${suite.app.url}/dashboard`);
    await page.waitForURL((u) => u.pathname === '/', { timeout: 5000 });
  });

  it('returns a signed-out visitor to the page they asked for after sign-in', async () => {
    const page = await newPage();
    await page.goto(`${suite.app.url}/profile`);
    await page.waitForURL((u) => u.pathname === '/');
    await signInWithDevProvider(page, suite.app.url, 'returning');
    await page.getByLabel('GrowID').fill('Returner1');
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Yes, register' }).click();
    await page.getByRole('heading', { name: 'Profile' }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/profile');
  });

  it('shows a refused sign-in on the login page', async () => {
    const page = await newPage();
    await page.goto(suite.app.url);
    await page.getByRole('link', { name: /login with discord/i }).click();
    await page.getByRole('button', { name: 'Cancel' }).click();
    const box = page.getByTestId('login-error');
    await box.waitFor();
    assert.match((await box.textContent()) ?? '', /^Login Failed: The resource owner or authorization server denied/);
    assert.equal(new URL(page.url()).hash, '', 'the fragment is removed');
  });

  it('shows the Indonesian 404 page for an unknown path', async () => {
    const page = await newPage();
    const res = await page.goto(`${suite.app.url}/this/does-not-exist`);
    assert.equal(res?.status(), 404);
    await page.getByText('Halaman Tidak Ditemukan').waitFor();
    assert.equal(await page.getByTestId('error-code').textContent(), '404');
    assert.equal(await page.getByRole('link', { name: 'Kembali ke Beranda' }).getAttribute('href'), '/');
  });
});
