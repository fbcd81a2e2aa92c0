import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { before, describe, it } from 'node:test';
import { adminAuditMessages, defaultSettings } from '@canopy/contract';
import { adminPanel } from './support/admin.ts';
import { apiCall, apiSignIn, apiSignInRegistered } from './support/api.ts';
import { ADMIN_USERNAME } from './support/app.ts';
import { useApp } from './support/suite.ts';

describe('admin Activity Logs search and export', () => {
  const suite = useApp();
  before(async () => {
    await apiSignInRegistered(suite.app.url, ADMIN_USERNAME, 'AdminOne');
    const token = (await apiSignIn(suite.app.url, ADMIN_USERNAME)).token;
    // Two entries to find: maintenance switched on, then off again.
    for (const maintenance of [true, false])
      assert.equal(
        (await apiCall(suite.app.url, token, 'POST', '/admin/settings', { ...defaultSettings, maintenance })).status,
        200,
      );
  });

  it('searches the log and exports what it shows as CSV', async () => {
    const page = await adminPanel(suite, 'activity-logs');
    const rows = page.getByTestId('activity-log-row');
    await page.getByRole('searchbox', { name: adminAuditMessages.searchLabel }).fill('maintenance mode');
    await page.getByText('Maintenance mode turned on', { exact: true }).waitFor();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="activity-log-row"]').length === 2);
    assert.deepEqual(await rows.locator('td:nth-child(2)').allTextContents(), [
      'Maintenance mode turned off',
      'Maintenance mode turned on',
    ]);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: adminAuditMessages.exportCsv }).click(),
    ]);
    assert.match(download.suggestedFilename(), /^activity-logs-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = (await readFile(await download.path())).toString('utf8').split('\r\n');
    assert.equal(csv[0], 'Timestamp,Action,Actor Type,Actor Name,Details');
    assert.deepEqual(
      csv.slice(1, 3).map((line) => line.split(',').slice(1, 3)),
      [
        ['Maintenance mode turned off', 'Admin'],
        ['Maintenance mode turned on', 'Admin'],
      ],
    );
    assert.equal(csv.length, 4, 'the search applies to the export: header, two rows, the empty tail');
  });
});
