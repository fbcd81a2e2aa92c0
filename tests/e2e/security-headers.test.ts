import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { signInAndRegister } from './support/browser.ts';
import { useApp } from './support/suite.ts';

describe('security headers with the built web app', () => {
  const suite = useApp();

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
    const page = await (await suite.browser.newContext()).newPage();
    const violations = await watchViolations(page);
    const res = await page.goto(suite.app.url);
    const headers = res?.headers() ?? {};
    assert.match(headers['content-security-policy'] ?? '', /frame-ancestors 'none'/);
    assert.match(headers['content-security-policy'] ?? '', /script-src 'self'/);
    assert.equal(headers['x-content-type-options'], 'nosniff');
    assert.equal(headers['referrer-policy'], 'no-referrer');
    assert.equal(headers['x-frame-options'], 'DENY');

    await page.getByRole('link', { name: /login with discord/i }).waitFor();
    await signInAndRegister(page, suite.app.url, 'cspcheck', 'CspCheck1');
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.getByTestId('dashboard-growid').getByText('CspCheck1').waitFor();
    assert.deepEqual(violations, []);
  });
});
