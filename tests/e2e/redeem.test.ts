import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { redeemLabels as l, redeemMessages as m } from '@canopy/contract';
import type { RunningApp } from './support/app.ts';
import { open, registeredPage, toast } from './support/pages.ts';
import { useApp } from './support/suite.ts';

const root = new URL('../../', import.meta.url).pathname;

/** Creates a code with the operator's CLI on the running app's database; returns the code. */
async function createCode(app: RunningApp, ...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, ['scripts/codes.ts', 'create', ...args], {
    cwd: root,
    env: { ...process.env, CANOPY_DATA_DIR: app.dataDir, DATABASE_URL: '' },
  });
  return stdout.split('\n')[0] ?? '';
}

describe('Redeem Code page', () => {
  const suite = useApp();

  it('redeems a public slot code and a private time code; slots and history change on the dashboard and profile', async () => {
    const page = await registeredPage(suite.browser, suite.app, 'redeemer', 'Redeemer1', {
      viewport: { width: 1280, height: 900 },
    });
    const slots = async () => Number(await page.getByTestId('available-slots').textContent());
    const before = await slots();

    const publicCode = await createCode(
      suite.app,
      ...['--type', 'Slot', '--amount', '2', '--stock', '5', '--expires', '2099-12-31', '--public'],
    );
    const privateCode = await createCode(suite.app, '--type', 'ServerTime', '--amount', '7', '--stock', '1');

    await open(page, 'Redeem Code');
    await page.getByRole('heading', { name: 'Redeem Code' }).waitFor();
    const row = page.locator(`[data-testid="public-code"][data-code="${publicCode}"]`);
    await row.locator('[data-testid="redeem-status"][data-status="available"]').waitFor();
    assert.equal(await row.getByTestId('public-code-reward').textContent(), '2 Slots');
    assert.equal(await row.getByTestId('public-code-stock').textContent(), '0/5 claimed');
    // The code lasts to the end of that day in UTC, and says so.
    assert.equal(await row.getByTestId('public-code-expiry').textContent(), 'Expires 31/12/2099 (UTC)');
    assert.equal(await page.locator(`[data-code="${privateCode}"]`).count(), 0, 'private codes are not listed');

    // The field: empty means no submit; an unknown code is told apart.
    assert.equal(await page.getByTestId('redeem-submit').isDisabled(), true);
    await page.getByTestId('redeem-input').fill('NO-SUCH-CODE');
    await page.getByTestId('redeem-submit').click();
    await toast(page, m.notFound);

    // The public code: redeemed from the list, which then shows it claimed, without a button.
    await row.getByTestId('public-code-redeem').click();
    await toast(page, m.success('2 Slots'));
    await row.locator('[data-testid="redeem-status"][data-status="claimed"]').waitFor();
    assert.equal(await row.getByTestId('public-code-stock').textContent(), '1/5 claimed');
    assert.equal(await row.getByTestId('public-code-redeem').count(), 0);
    await page
      .getByTestId('redeem-slots')
      .getByText(String(before + 2), { exact: true })
      .waitFor();

    // The private code, typed in lower case with spaces around it.
    await page.getByTestId('redeem-input').fill(`  ${privateCode.toLowerCase()} `);
    await page.getByTestId('redeem-submit').click();
    await toast(page, m.success('7 Days Server Time'));
    await page.screenshot({ path: '/tmp/redeem-page.png', fullPage: true });

    await open(page, 'Dashboard');
    await page
      .getByTestId('available-slots')
      .getByText(String(before + 2), { exact: true })
      .waitFor();

    await open(page, 'Profile');
    await page
      .getByTestId('profile-slots')
      .getByText(String(before + 2), { exact: true })
      .waitFor();
    // 7 starting days waiting for the first server, plus the 7 redeemed.
    await page
      .getByTestId('profile-expiry')
      .getByText(/^14d pending/)
      .waitFor();
    const history = page.getByTestId('redemption');
    await history.nth(1).waitFor();
    assert.deepEqual(await history.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-code'))), [
      privateCode,
      publicCode,
    ]);
    assert.match(
      (await history.first().getByTestId('redemption-date').textContent()) ?? '',
      /^\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}:\d{2}$/,
    );
    await page.screenshot({ path: '/tmp/profile-page.png', fullPage: true });
  });

  it('sends a code once when Enter is pressed again while it is being redeemed', async () => {
    const page = await registeredPage(suite.browser, suite.app, 'hasty', 'Hasty1');
    const code = await createCode(suite.app, '--type', 'ServerTime', '--amount', '1', '--stock', '5');
    // Hold the first answer until the second Enter has been pressed.
    let posts = 0;
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/redeem', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      posts++;
      await held;
      return route.continue();
    });
    await open(page, 'Redeem Code');
    const input = page.getByTestId('redeem-input');
    await input.fill(code);
    // Two submits in one go, before React can re-render a disabled button: only the guard stops the second.
    await input.evaluate((field) => {
      const form = (field as HTMLInputElement).form;
      form?.requestSubmit();
      form?.requestSubmit();
    });
    await page.waitForFunction(() => document.querySelector('[data-testid="redeem-submit"]')?.hasAttribute('disabled'));
    await input.press('Enter');
    release();
    await toast(page, m.success('1 Day Server Time'));
    // The field is cleared after the answer (a second POST would be answered "already redeemed" instead,
    // and the field kept): wait for either.
    await page.waitForFunction(
      (refused) =>
        (document.querySelector('[data-testid="redeem-input"]') as HTMLInputElement | null)?.value === '' ||
        (document.body.textContent ?? '').includes(refused),
      m.alreadyClaimed,
    );
    assert.equal(posts, 1);
    assert.equal(await page.getByText(m.alreadyClaimed, { exact: true }).count(), 0);
  });

  it("shows the spec's default texts when the api answers without an error field", async () => {
    const page = await registeredPage(suite.browser, suite.app, 'unlucky', 'Unlucky1');
    // A proxy's HTML error page: no JSON, so no 'error' field.
    const proxyError = { status: 502, contentType: 'text/html', body: '<html><body>Bad Gateway</body></html>' };
    await page.route('**/public-redeem-codes', (route) => route.fulfill(proxyError));
    await page.route('**/redeem', (route) =>
      route.request().method() === 'POST' ? route.fulfill(proxyError) : route.continue(),
    );
    await open(page, 'Redeem Code');
    await page.getByTestId('public-codes-error').getByText(m.fetchFailed, { exact: true }).waitFor();
    await page.getByRole('alert').filter({ hasText: m.fetchFailed }).first().waitFor();
    await page.getByRole('heading', { name: l.publicCodes }).waitFor();
    await page.getByTestId('redeem-input').fill('ANY-CODE');
    await page.getByTestId('redeem-submit').click();
    await toast(page, m.redeemFailed);
  });
});
