import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { setupGuideContent as content, setupGuideMessages as m } from '@canopy/contract';
import type { Page } from 'playwright-core';
import { LOGIN_NAME, loginCertificate } from '../../apps/api/test/support/login-host.ts';
import { open, registeredPage, toast } from './support/pages.ts';
import { useApp } from './support/suite.ts';

const IP = '198.51.100.23';
const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());
const devNote = (page: Page) => page.getByTestId('setup-dev-certificate');
const section = (page: Page, platform: string, language: string) =>
  page.locator(`[data-testid="setup-section"][data-platform="${platform}"][data-language="${language}"]`).waitFor();

describe('Setup Guide', () => {
  const suite = useApp({ CANOPY_PUBLIC_IP: IP });

  it('switches tabs and language, and copies the hosts lines and the app URLs to the clipboard', async () => {
    const page = await registeredPage(suite.browser, suite.app, 'voyager', 'Voyager1', {
      permissions: ['clipboard-read', 'clipboard-write'],
      viewport: { width: 1280, height: 900 },
    });
    await open(page, 'Setup Guide');
    await page.getByRole('heading', { name: m.title, exact: true }).waitFor();

    // Indonesian first, on the Windows tab.
    await section(page, 'windows', 'ID');
    await page.getByRole('heading', { name: content.ID.platforms.windows.title }).waitFor();
    await page.getByText(content.ID.platforms.windows.steps[0] ?? '', { exact: true }).waitFor();
    const hosts = [
      `${IP} www.growtopia1.com`,
      `${IP} www.growtopia2.com`,
      `${IP} growtopia1.com`,
      `${IP} growtopia2.com`,
    ];
    await page
      .getByTestId('setup-hosts')
      .getByText(hosts[0] ?? '')
      .waitFor();
    await page.getByTestId('setup-hosts-copy').click();
    // The success toast speaks the page's language (ID first).
    await toast(page, content.ID.labels.copied);
    assert.equal(await clipboard(page), hosts.join('\n'));
    // No CANOPY_LOGIN_HOST: the game's sign-in page is self-signed, and the page says so after the guide.
    await devNote(page).getByText(content.ID.labels.devCertificate, { exact: true }).waitFor();
    await page.screenshot({ path: '/tmp/setup-guide-windows-id.png', fullPage: true });

    // English, then Android: the tunnel URL is absolute, on the panel's own origin.
    await page.getByTestId('language-EN').click();
    await section(page, 'windows', 'EN');
    await page.getByRole('heading', { name: content.EN.platforms.windows.title }).waitFor();
    await devNote(page).getByText(content.EN.labels.devCertificate, { exact: true }).waitFor();
    await page.screenshot({ path: '/tmp/setup-guide-windows-en.png', fullPage: true });
    await page.getByRole('tab', { name: 'Android' }).click();
    await section(page, 'android', 'EN');
    const tunnelUrl = `${suite.app.url}/setup/powertunnel.txt`;
    await page.getByTestId('setup-tunnel').getByText(tunnelUrl, { exact: true }).waitFor();
    await page.getByTestId('setup-tunnel-copy').click();
    await page.waitForFunction((url) => navigator.clipboard.readText().then((t) => t === url), tunnelUrl);
    await toast(page, content.EN.labels.copied);

    // iOS (keyboard: the tab bar follows the arrow keys), back to Indonesian.
    await page.getByRole('tab', { name: 'Android' }).press('ArrowRight');
    await page.getByTestId('language-ID').click();
    await section(page, 'ios', 'ID');
    await page.getByText(content.ID.platforms.ios.steps[0] ?? '', { exact: true }).waitFor();
    const surgeUrl = `${suite.app.url}/setup/surge.conf`;
    await page.getByTestId('setup-surge-copy').click();
    await page.waitForFunction((url) => navigator.clipboard.readText().then((t) => t === url), surgeUrl);
    await page.screenshot({ path: '/tmp/setup-guide-ios-id.png', fullPage: true });

    // The URLs handed out open as plain text even in a browser (not the app's not-found page).
    const surge = await page.context().newPage();
    const answer = await surge.goto(surgeUrl);
    assert.equal(answer?.status(), 200);
    assert.equal(answer?.headers()['content-type'], 'text/plain; charset=utf-8');
    assert.match(
      (await answer?.text()) ?? '',
      new RegExp(
        `^\\[General\\]\\nbypass-system = true\\n[\\s\\S]*www\\.growtopia1\\.com = ${IP.replaceAll('.', '\\.')}$`,
        'm',
      ),
    );
    await surge.close();
  });

  it("says 'No {label} to copy.' when the guide could not be loaded", async () => {
    const page = await registeredPage(suite.browser, suite.app, 'stranded', 'Stranded1', {
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    // The api refusing the guide (a 4xx is not retried): the page has nothing to copy.
    await page.route('**/setup-guide', (route) =>
      route.fulfill({
        status: 403,
        contentType: 'application/json',
        body: JSON.stringify({ error: 'Nope.', code: 'x' }),
      }),
    );
    await open(page, 'Setup Guide');
    await toast(page, 'Nope.');
    await page.getByTestId('setup-hosts-copy').click();
    await toast(page, m.nothingToCopy('hosts lines'));
    assert.equal(await page.getByTestId('setup-ip').textContent(), '—');
    // The block says the guide failed instead of looking like it is still loading.
    assert.equal(await page.getByTestId('setup-hosts').textContent(), m.fetchFailed);
    // Nothing is known about the sign-in page, so no note about it.
    assert.equal(await devNote(page).count(), 0);
  });
});

describe('Setup Guide with a login host and its certificate', () => {
  // Filled by the first `before` (registered ahead of useApp's), before the app starts with it.
  const env: Record<string, string> = {
    CANOPY_PUBLIC_IP: IP,
    CANOPY_GATEWAY: 'on',
    CANOPY_GATEWAY_TLS_PORT: '0',
    CANOPY_GATEWAY_UDP_PORT: '0',
  };
  let certDir = '';
  before(async () => {
    const given = await loginCertificate();
    certDir = given.dir;
    Object.assign(env, {
      CANOPY_LOGIN_HOST: LOGIN_NAME,
      CANOPY_LOGIN_TLS_CERT: given.certPath,
      CANOPY_LOGIN_TLS_KEY: given.keyPath,
    });
  });
  const suite = useApp(env);
  after(() => rmSync(certDir, { recursive: true, force: true }));

  it('shows no development-certificate note', async () => {
    const page = await registeredPage(suite.browser, suite.app, 'trusted', 'Trusted1');
    await open(page, 'Setup Guide');
    await section(page, 'windows', 'ID');
    // The guide has loaded (the address comes from the same answer the note would).
    await page.getByTestId('setup-ip').getByText(IP, { exact: true }).waitFor();
    assert.equal(await devNote(page).count(), 0);
  });
});
