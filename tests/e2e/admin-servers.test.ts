import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import {
  adminBanLabels,
  adminBanMessages,
  adminPanelMessages,
  hostingMessages,
  adminServerLabels as l,
} from '@canopy/contract';
import { adminPanel } from './support/admin.ts';
import { apiCall, apiCreateServer, apiSignIn, apiSignInRegistered } from './support/api.ts';
import { ADMIN_USERNAME, setAvailableSlots } from './support/app.ts';
import { LIVE_TIMEOUT_MS, toast } from './support/pages.ts';
import { useApp } from './support/suite.ts';

describe('admin Servers, Banned Servers and Ban Logs tabs', () => {
  const suite = useApp();
  let owner = { id: '', token: '' };
  before(async () => {
    await apiSignInRegistered(suite.app.url, ADMIN_USERNAME, 'AdminOne');
    owner = await apiSignInRegistered(suite.app.url, 'hoster', 'HostOwner');
    await apiCreateServer(suite.app, owner, 'Shady_Realm');
    // A second server that the search must leave out.
    await apiCreateServer(suite.app, await apiSignInRegistered(suite.app.url, 'other', 'OtherOwner'), 'Other_Realm');
  });

  it('finds a server by owner GrowID, starts and stops it, deletes it banning the name, and the name is refused', async () => {
    const page = await adminPanel(suite, 'servers');
    await page.getByRole('searchbox', { name: l.searchLabel }).fill('hostown');
    const rows = page.getByTestId('admin-server-row');
    // Wait for the search's answer itself: before the first list arrives, Other_Realm is absent too.
    await page.waitForFunction(() => {
      const names = [...document.querySelectorAll('[data-testid="admin-server-row"]')].map((e) =>
        e.getAttribute('data-name'),
      );
      return names.join(',') === 'Shady_Realm';
    });
    assert.deepEqual(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-name'))), ['Shady_Realm']);
    const row = rows.filter({ hasText: 'Shady_Realm' });
    const button = (name: string) => row.getByRole('button', { name, exact: true });
    assert.equal(await button(l.stop).isDisabled(), true, 'stop is disabled while OFFLINE');

    await button(l.start).click();
    await row
      .getByTestId('admin-server-status')
      .locator('[data-status="ONLINE"]')
      .waitFor({ timeout: LIVE_TIMEOUT_MS });
    assert.equal(await button(l.start).isDisabled(), true, 'start is disabled while ONLINE');
    await button(l.stop).click();
    await row
      .getByTestId('admin-server-status')
      .locator('[data-status="OFFLINE"]')
      .waitFor({ timeout: LIVE_TIMEOUT_MS });

    await button(l.delete).click();
    const dialog = page.getByRole('dialog', { name: l.deleteTitle });
    await dialog.getByRole('checkbox', { name: l.alsoBan }).check();
    await dialog.getByRole('textbox', { name: l.banReason }).fill('Phishing lookalike');
    await dialog.getByRole('button', { name: l.delete, exact: true }).click();
    await toast(page, adminBanMessages.serverNameBanned('Shady_Realm'));
    await row.waitFor({ state: 'detached' });

    await page.getByTestId('admin-sidebar').getByRole('button', { name: 'Banned Servers' }).click();
    const banned = page.locator('[data-testid="banned-server-row"][data-name="Shady_Realm"]');
    await banned.getByText('Phishing lookalike', { exact: true }).waitFor();

    setAvailableSlots(suite.app, owner.id, 1);
    const again = await apiCall(suite.app.url, owner.token, 'POST', `/users/${owner.id}/server`, {
      serverName: 'shady_realm',
    });
    assert.equal(again.status, 400, JSON.stringify(again.body));
    assert.equal((again.body as { error: string }).error, hostingMessages.serverNameBanned);
  });

  it('asks for a reason before banning the name on delete, and unbans a user from the Ban Logs', async () => {
    const page = await adminPanel(suite, 'servers');
    const row = page.locator('[data-testid="admin-server-row"][data-name="Other_Realm"]');
    await row.getByRole('button', { name: l.delete, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: l.deleteTitle });
    await dialog.getByRole('checkbox', { name: l.alsoBan }).check();
    await dialog.getByRole('button', { name: l.delete, exact: true }).click();
    await dialog.getByText(adminPanelMessages.serverNameBanReasonRequired, { exact: true }).waitFor();
    await dialog.getByRole('button', { name: l.cancel, exact: true }).click();
    const admin = await apiSignIn(suite.app.url, ADMIN_USERNAME);
    const servers = await apiCall(suite.app.url, admin.token, 'GET', '/admin/all-servers?search=Other_Realm');
    assert.equal((servers.body as { total: number }).total, 1, 'nothing was deleted');
    const names = await apiCall(suite.app.url, admin.token, 'GET', '/admin/banned-servers?search=Other_Realm');
    assert.equal((names.body as { total: number }).total, 0, 'nothing was banned');

    const ban = await apiCall(suite.app.url, admin.token, 'POST', `/admin/users/${owner.id}/ban`, {
      reason: 'Exploiting/Cheating',
      duration: 'perm',
    });
    assert.equal(ban.status, 200, JSON.stringify(ban.body));
    await page.getByTestId('admin-sidebar').getByRole('button', { name: 'Ban Logs' }).click();
    const log = page.locator('[data-testid="ban-log-row"][data-active]', { hasText: 'Exploiting/Cheating' });
    await log.getByText(adminBanLabels.permanent, { exact: true }).waitFor();
    await log.getByRole('button', { name: adminBanLabels.unban }).click();
    await page.getByRole('dialog', { name: adminBanLabels.unbanTitle }).getByRole('button', { name: 'Unban' }).click();
    await toast(page, adminPanelMessages.userUnbanned);
    await log.waitFor({ state: 'detached' });
    const banLogs = await apiCall(suite.app.url, admin.token, 'GET', '/admin/ban-logs');
    assert.equal((banLogs.body as { items: { active: boolean }[] }).items[0]?.active, false);
  });
});
