import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { signInAndRegister } from './support/browser.ts';
import { watchCspViolations } from './support/csp.ts';
import { useApp } from './support/suite.ts';

describe('security headers with the built web app', () => {
  const suite = useApp();

  it('serves the app with a CSP it obeys: login, development sign-in, registration and the dashboard', async () => {
    const page = await (await suite.browser.newContext()).newPage();
    const violations = await watchCspViolations(page);
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
