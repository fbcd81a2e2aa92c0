import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { watchCspViolations } from './support/csp.ts';
import { useApp } from './support/suite.ts';

describe('API docs page', () => {
  const suite = useApp();

  it('renders the generated document from our own origin with no CSP violation', async () => {
    const page = await (await suite.browser.newContext()).newPage();
    const violations = await watchCspViolations(page);
    const outside: string[] = [];
    page.on('request', (req) => {
      if (!req.url().startsWith(suite.app.url) && !req.url().startsWith('data:')) outside.push(req.url());
    });
    const res = await page.goto(`${suite.app.url}/api-docs`);
    assert.equal(res?.status(), 200);
    // The panel's own policy (no inline styles or scripts): Swagger UI needs nothing loosened.
    assert.match(res?.headers()['content-security-policy'] ?? '', /script-src 'self';.*style-src 'self';/);
    // Swagger UI draws each operation as a block with its path; these come from the route table.
    await page.locator('.opblock-summary-path[data-path="/auth/login"]').first().waitFor();
    await page.locator('.opblock-summary-path[data-path="/users/{id}/server/worlds/{name}"]').first().waitFor();
    await page.getByText('Canopy API', { exact: false }).first().waitFor();
    // Opening an operation and trying it renders more of the UI (forms, the live answer) under the same policy.
    await page.locator('.opblock-summary-path[data-path="/auth/login"]').first().click();
    await page.getByRole('button', { name: 'Try it out' }).first().click();
    await page.getByRole('button', { name: 'Execute' }).first().click();
    await page.locator('.live-responses-table').first().waitFor();
    assert.deepEqual(violations, []);
    assert.deepEqual(outside, []);
  });
});
