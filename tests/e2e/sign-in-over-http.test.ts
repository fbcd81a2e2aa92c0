import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { type RunningApp, startApp } from './support/app.ts';
import { launchBrowser, signInWithDevProvider } from './support/browser.ts';

// Issue 21 items 10-11. Chromium counts localhost and all of 127.0.0.0/8 as secure contexts; a name that is not
// localhost is not. The browser resolves PANEL_NAME to the app's 127.0.0.1, so the panel is opened as a plain
// HTTP site on a network address would be: no crypto.subtle, window.isSecureContext false.
const PANEL_NAME = 'canopy-panel.test';
const STATE_REFUSED =
  'Login Failed: This sign-in was not started from this browser tab, so it was refused. Click Login with Discord to sign in.';

/** Waits for the login page's error box and checks that it names the refused state (its text, then the × button). */
async function refused(page: Page, note?: string) {
  const box = page.getByTestId('login-error');
  await box.waitFor();
  const text = (await box.textContent()) ?? '';
  assert.ok(text.startsWith(STATE_REFUSED), `${note ?? ''}: ${text}`);
}

/** An access token the development provider issues for `username` (what an attacker gets for their own account). */
async function devAccessToken(app: RunningApp, username: string): Promise<string> {
  const approve = await fetch(
    `${app.url}/dev-discord/oauth2/approve?username=${username}&redirect_uri=${encodeURIComponent(`${app.url}/`)}`,
    { redirect: 'manual' },
  );
  const token = new URLSearchParams(new URL(approve.headers.get('location') ?? '').hash.slice(1)).get('access_token');
  assert.ok(token, 'the development provider issued a token');
  return token;
}

describe('sign-in over plain HTTP on a network address, and the OAuth state', () => {
  let app: RunningApp;
  let browser: Browser;
  let panelUrl: string;
  before(async () => {
    app = await startApp();
    browser = await launchBrowser([`--host-resolver-rules=MAP ${PANEL_NAME} 127.0.0.1`]);
    panelUrl = `http://${PANEL_NAME}:${new URL(app.url).port}`;
  });
  after(async () => {
    await browser?.close();
    await app?.stop();
  });

  const newPage = async (): Promise<Page> => (await browser.newContext()).newPage();
  /** Every POST /auth/login the page sends. */
  const loginCalls = (page: Page) => {
    const calls: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/auth/login') calls.push(r.url());
    });
    return calls;
  };

  it('signs in without crypto.subtle, keeps the session encrypted, and warns that HTTP is not encrypted', async () => {
    const page = await newPage();
    await page.goto(panelUrl);
    assert.deepEqual(await page.evaluate(() => [window.isSecureContext, typeof crypto.subtle]), [false, 'undefined']);
    const note = page.getByTestId('insecure-connection');
    await note.waitFor();
    assert.match((await note.textContent()) ?? '', /not encrypted.*configure HTTPS/);

    const href = await page.getByRole('link', { name: /login with discord/i }).getAttribute('href');
    const state = new URL(href ?? '', panelUrl).searchParams.get('state');
    assert.match(state ?? '', /^[0-9a-f]{32}$/, 'the authorize link carries a random state');

    await signInWithDevProvider(page, panelUrl, 'roamer');
    await page.getByRole('heading', { name: 'Register your GrowID' }).waitFor();
    assert.equal(new URL(page.url()).origin, panelUrl, 'the return came back to the address the panel was opened at');

    // The spec's storage format: the JWK WebCrypto would export, values as IV + cipher text + tag.
    const stored = await page.evaluate(() => ({
      key: JSON.parse(localStorage.getItem('canopy.key') ?? '{}'),
      token: localStorage.getItem('canopy.session-token') ?? '',
    }));
    assert.equal(stored.key.alg, 'A256GCM');
    assert.equal(stored.key.kty, 'oct');
    assert.ok(atob(stored.token).length > 12 + 16, 'the session token is stored encrypted');
    assert.equal(await page.evaluate(() => sessionStorage.getItem('canopy.login-state')), null, 'the state is used up');

    // Restored from the encrypted storage after a reload.
    await page.reload();
    await page.getByRole('heading', { name: 'Register your GrowID' }).waitFor();
  });

  it('shows no warning on localhost', async () => {
    const page = await newPage();
    await page.goto(app.url);
    await page.getByRole('link', { name: /login with discord/i }).waitFor();
    assert.equal(await page.evaluate(() => window.isSecureContext), true);
    assert.equal(await page.getByTestId('insecure-connection').count(), 0);
  });

  it('refuses a crafted return with a wrong or missing state: nobody is signed in', async () => {
    const token = await devAccessToken(app, 'mallory');
    for (const fragment of [`access_token=${token}&state=wrong`, `access_token=${token}`]) {
      const page = await newPage();
      const calls = loginCalls(page);
      await page.goto(`${panelUrl}/#token_type=Bearer&${fragment}`);
      await refused(page, fragment);
      assert.equal(new URL(page.url()).hash, '', 'the fragment is removed');
      await page.getByRole('link', { name: /login with discord/i }).waitFor();
      assert.deepEqual(calls, [], 'the token is never sent to /auth/login');
      assert.equal(await page.evaluate(() => localStorage.getItem('canopy.session-token')), null);
      await page.goto(`${panelUrl}/dashboard`);
      await page.waitForURL((u) => u.pathname === '/');
    }
  });

  it('refuses a return whose state another tab started, and does not show a crafted error text', async () => {
    // This tab starts a sign-in (its state is kept), then a crafted return arrives with another state.
    const page = await newPage();
    const calls = loginCalls(page);
    await page.goto(panelUrl);
    await page.getByRole('link', { name: /login with discord/i }).click();
    await page.waitForURL(/\/dev-discord\/oauth2\/authorize/);
    const token = await devAccessToken(app, 'mallory');
    await page.goto(`${panelUrl}/#access_token=${token}&state=${'0'.repeat(32)}`);
    await refused(page);
    assert.deepEqual(calls, []);

    // A fresh page load: the return is read once per load.
    const other = await newPage();
    await other.goto(`${panelUrl}/#error=access_denied&error_description=Call+0800+now&state=wrong`);
    await refused(other);
  });
});
