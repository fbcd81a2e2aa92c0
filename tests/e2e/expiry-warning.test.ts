import assert from 'node:assert/strict';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, it } from 'node:test';
import { dashboardTexts } from '@canopy/contract';
import { ownerWithServer, sidebar } from './support/pages.ts';
import { useApp } from './support/suite.ts';

// Issue 24 item 3: a day before the server time runs out the owner is told, on the dashboard and the server
// pages, with the way to renew; after a deletion the dashboard says what happened until it is dismissed.
describe('expiry that cannot surprise', () => {
  const suite = useApp();

  /** Sets when a user's server time runs out (no api call exists for it). */
  function setServerExpiry(discordId: string, at: number) {
    const db = new DatabaseSync(join(suite.app.dataDir, 'canopy.db'));
    try {
      db.exec('PRAGMA busy_timeout = 5000');
      db.prepare('UPDATE users SET server_expires_at = ?, server_permanent = 0 WHERE id = ?').run(at, discordId);
    } finally {
      db.close();
    }
  }

  it('warns with a Renew link under 24 h left, then tells of the deletion until dismissed', async () => {
    const { page, id } = await ownerWithServer(suite.browser, suite.app, {
      username: 'lastday',
      growId: 'LastDay1',
      serverName: 'Last_Grove',
    });
    await page.getByTestId('server-name').getByText('Last_Grove').waitFor();
    assert.equal(await page.getByTestId('banner-ending-soon').count(), 0, 'no warning with days left');

    setServerExpiry(id, Date.now() + 5 * 3600 * 1000);
    await page.reload();
    const banner = page.getByTestId('banner-ending-soon');
    await banner.getByText('Your server time runs out soon').waitFor();
    assert.match((await banner.textContent()) ?? '', /Last_Grove stops on \d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}:\d{2} \(4h/);
    assert.equal(await banner.getByRole('link', { name: 'Renew & Shop' }).getAttribute('href'), '/renew');

    // A server page says it too; its link leads to the shop.
    await sidebar(page).getByRole('link', { name: 'World Manager' }).click();
    await page.getByTestId('banner-ending-soon').getByRole('link', { name: 'Renew & Shop' }).click();
    await page.waitForURL('**/renew');

    // The owner deletes the server: the warning goes, the notice says who, when and what next.
    await sidebar(page).getByRole('link', { name: 'Dashboard' }).click();
    await page.getByTestId('server-delete').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    const notice = page.getByTestId('banner-deleted');
    await notice.getByText('Your server was deleted.').waitFor();
    assert.match(
      (await page.getByTestId('deleted-details').textContent()) ?? '',
      /^Last_Grove was deleted on \d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}:\d{2}\. You deleted it\.$/,
    );
    assert.equal(
      await page.getByTestId('deleted-next').textContent(),
      `${dashboardTexts.deletedGone} ${dashboardTexts.deletedCreate}`,
    );
    assert.equal(await page.getByTestId('banner-ending-soon').count(), 0, 'no server left to stop');

    // Dismissed, it stays dismissed on the next visit.
    await notice.getByRole('button', { name: 'Dismiss' }).click();
    await notice.waitFor({ state: 'detached' });
    await page.reload();
    await page.getByRole('button', { name: 'Create Server' }).waitFor();
    assert.equal(await page.getByTestId('banner-deleted').count(), 0);
  });
});
