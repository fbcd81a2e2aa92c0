import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { type RunningApp, startApp } from './support/app.ts';
import { launchBrowser, signInAndRegister } from './support/browser.ts';

describe('security headers with the built web app', () => {
  let app: RunningApp;
  let browser: Browser;
  before(async () => {
    app = await startApp();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await app?.stop();
  });

  /** Every CSP violation the page reports, from the console and from securitypolicyviolation events. */
  async function watchViolations(page: Page) {
    const violations: string[] = [];
    page.on('console', (msg) => {
      if (/Content Security Policy|Refused to/i.test(msg.text())) violations.push(msg.text());
    });
    await page.exposeFunction('reportViolation', (text: string) => violations.push(text));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) =>
        (window as unknown as { reportViolation(t: string): void }).reportViolation(
          `${e.violatedDirective} blocked ${e.blockedURI}`,
        ),
      );
    });
    return violations;
  }

  it('serves the app with a CSP it obeys: login, development sign-in, registration and the dashboard', async () => {
    const page = await (await browser.newContext()).newPage();
    const violations = await watchViolations(page);
    const res = await page.goto(app.url);
    const headers = res?.headers() ?? {};
    assert.match(headers['content-security-policy'] ?? '', /frame-ancestors 'none'/);
    assert.match(headers['content-security-policy'] ?? '', /script-src 'self'/);
    assert.equal(headers['x-content-type-options'], 'nosniff');
    assert.equal(headers['referrer-policy'], 'no-referrer');
    assert.equal(headers['x-frame-options'], 'DENY');

    await page.getByRole('link', { name: /login with discord/i }).waitFor();
    await signInAndRegister(page, app.url, 'cspcheck', 'CspCheck1');
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.getByTestId('dashboard-growid').getByText('CspCheck1').waitFor();
    assert.deepEqual(violations, []);
  });
});
