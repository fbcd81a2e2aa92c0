import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, it } from 'node:test';
import { dashboardTexts, hostingMessages } from '@canopy/contract';
import type { Page } from 'playwright-core';
import { devUser } from '../../apps/api/src/dev-idp/dev-token.ts';
import { apiCall, apiSignInRegistered } from './support/api.ts';
import { setAvailableSlots, setStorageLimit } from './support/app.ts';
import { signInWithDevProvider } from './support/browser.ts';
import { LIVE_TIMEOUT_MS, statusIs, toast } from './support/pages.ts';
import { type E2eSuite, useApp } from './support/suite.ts';

/** Registers `username` through the api with one server slot, then signs in in a fresh browser page. */
async function signedInPage(
  { app, browser }: E2eSuite,
  username: string,
  growId: string,
): Promise<{ page: Page; id: string; token: string }> {
  const s = await apiSignInRegistered(app.url, username, growId);
  setAvailableSlots(app, devUser(username).id, 1);
  const page = await (await browser.newContext()).newPage();
  await signInWithDevProvider(page, app.url, username);
  await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  return { page, id: s.id, token: s.token };
}

describe('dashboard: a server from creation to deletion', () => {
  const suite = useApp();

  it('creates, starts (ONLINE arrives live), restarts, stops and deletes', async () => {
    const { page } = await signedInPage(suite, 'grower', 'Grower1');
    const name = 'Leafy_Grove';
    await page.locator('[data-testid="socket-state"][data-state="OPEN"]').waitFor();

    // Create, with the contract's validation messages shown live.
    await page.getByRole('button', { name: 'Create Server' }).click();
    const dialog = page.getByRole('dialog');
    const field = dialog.getByLabel('Server name');
    await field.fill('ab');
    await dialog.getByText(hostingMessages.serverNameLength).waitFor();
    await field.fill('bad name!');
    await dialog.getByText(hostingMessages.serverNameChars).waitFor();
    await field.fill('');
    await dialog.getByText(hostingMessages.serverNameRequired).waitFor();
    assert.equal(await dialog.getByRole('button', { name: 'Create' }).isDisabled(), true);
    await field.fill(name);
    await dialog.getByRole('button', { name: 'Create' }).click();
    await toast(page, hostingMessages.created(name));
    await page.getByTestId('server-name').getByText(name).waitFor();
    await page.getByTestId('sidebar-server').getByText(name).waitFor();
    await statusIs(page, suite.app, 'OFFLINE');
    assert.equal(await page.getByTestId('server-stop').isDisabled(), true, 'Stop is disabled while OFFLINE');

    // Start: the page must not reload, so the ONLINE status can only have come from the live feed.
    await page.evaluate(() => {
      (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
    });
    await page.getByTestId('server-start').click();
    await toast(page, hostingMessages.actionStarted('STARTING', name));
    await toast(page, hostingMessages.actionSucceeded('start'));
    await statusIs(page, suite.app, 'ONLINE');
    await page.locator('[data-testid="sidebar-server"] [data-status="ONLINE"]').waitFor();
    assert.equal(
      await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument),
      true,
      'ONLINE appeared without a reload',
    );
    assert.equal(await page.getByTestId('server-start').isDisabled(), true, 'Start is disabled while ONLINE');
    assert.equal(await page.getByTestId('server-stop').isEnabled(), true);

    // Restart: RESTARTING at once (optimistic), ONLINE again when the server is back.
    await page.getByTestId('server-restart').click();
    await toast(page, hostingMessages.actionStarted('RESTARTING', name));
    await toast(page, hostingMessages.actionSucceeded('restart'));
    await statusIs(page, suite.app, 'ONLINE');

    // Stop.
    await page.getByTestId('server-stop').click();
    await toast(page, hostingMessages.actionStarted('STOPPING', name));
    await statusIs(page, suite.app, 'OFFLINE');
    assert.equal(await page.getByTestId('server-start').isEnabled(), true);

    // Delete, behind a confirmation.
    await page.getByRole('button', { name: 'Delete Server' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).click();
    await toast(page, hostingMessages.deleted);
    await page.getByRole('button', { name: 'Create Server' }).waitFor();
    await page.getByTestId('sidebar-server').getByText('No server', { exact: true }).waitFor();
  });

  it('refuses to start a server when the storage is full', async () => {
    const username = 'hoarder';
    const { page, id, token } = await signedInPage(suite, username, 'Hoarder1');
    const name = 'Full_Shed';
    const created = await apiCall(suite.app.url, token, 'POST', `/users/${id}/server`, { serverName: name });
    assert.equal(created.status, 201);
    // Used (0 MB) at or above a 0 MB limit is full.
    setStorageLimit(suite.app, devUser(username).id, 0);
    await page.reload();

    await page.getByTestId('banner-storage').waitFor();
    await statusIs(page, suite.app, 'OFFLINE');
    const start = page.getByTestId('server-start');
    assert.equal(await start.isDisabled(), true);
    assert.equal(await start.getAttribute('title'), hostingMessages.storageFull);
    await page.getByTestId('server-actions-reason').getByText(hostingMessages.storageFull).waitFor();

    // The api is the one that refuses: calling it directly gets the same answer.
    const refused = await apiCall(suite.app.url, token, 'POST', `/users/${id}/server/${name}/start`, {});
    assert.equal(refused.status, 409);
    assert.equal(refused.body.code, 'storage_full');
    assert.equal(refused.body.error, hostingMessages.storageFull);
  });
});

describe('dashboard: the truth about time and status, live', () => {
  // The scheduler passes every second, so expiry and deletion happen while the page is open.
  const suite = useApp({ CANOPY_SCHEDULER_INTERVAL_MS: '1000' });

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

  /** A registered user with a created server, signed in on the dashboard with the socket open. */
  async function ownerOnDashboard(username: string, growId: string, serverName: string) {
    const { page, ...s } = await signedInPage(suite, username, growId);
    // A new account shows the time it will get, not 'Permanent'.
    await page.getByTestId('server-time').getByText('pending', { exact: false }).waitFor();
    const created = await apiCall(suite.app.url, s.token, 'POST', `/users/${s.id}/server`, { serverName });
    assert.equal(created.status, 201);
    await page.reload();
    await page.locator('[data-testid="socket-state"][data-state="OPEN"]').waitFor();
    await page.locator('[data-testid="server-status"] [data-status="OFFLINE"]').waitFor();
    return { page, ...s };
  }

  const sameDocument = async (page: Page) => {
    await page.evaluate(() => {
      (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
    });
    return async () =>
      assert.equal(
        await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument),
        true,
        'no reload happened',
      );
  };

  it('expiry and the end of grace reach the open dashboard without a reload', async () => {
    const { page, id } = await ownerOnDashboard('timekeeper', 'Keeper1', 'Ticking_Grove');
    setServerExpiry(id, Date.now() + 20_000);
    await page.reload();
    await page.getByTestId('server-time').getByText('remaining', { exact: false }).waitFor();
    const noReload = await sameDocument(page);

    // Time runs out: the grace banner and the refused Start appear by themselves.
    await page.getByTestId('banner-grace').waitFor({ timeout: LIVE_TIMEOUT_MS });
    await page.getByTestId('server-time').getByText('left in grace period', { exact: false }).waitFor();
    const start = page.getByTestId('server-start');
    assert.equal(await start.isDisabled(), true);
    assert.equal(await start.getAttribute('title'), hostingMessages.serverTimeExpired);
    await noReload();

    // Grace ending in a few seconds: the scheduler deletes the server and the page follows.
    setServerExpiry(id, Date.now() - 3 * 24 * 3600 * 1000 + 5000);
    await page.reload();
    await page.getByTestId('banner-grace').waitFor();
    const noReloadAgain = await sameDocument(page);
    await page.getByRole('button', { name: 'Create Server' }).waitFor({ timeout: LIVE_TIMEOUT_MS });
    await page.getByTestId('sidebar-server').getByText('No server', { exact: true }).waitFor();
    await page.getByTestId('banner-grace').waitFor({ state: 'detached' });
    // The countdown moved on by itself (no grace without a server: Expired, and how to get time again), and a
    // server made now would go the same way: refused.
    await page.getByTestId('server-time').getByText('Expired', { exact: true }).waitFor();
    await page.getByTestId('server-time-hint').getByText(dashboardTexts.noTimeRenew, { exact: true }).waitFor();
    const create = page.getByTestId('server-create');
    assert.equal(await create.isDisabled(), true);
    assert.equal(await create.getAttribute('title'), hostingMessages.serverTimeOverCreate);
    await noReloadAgain();
  });

  it('a server kept down by the crash-loop guard says so, until it is started again', async () => {
    const { page, id, token } = await ownerOnDashboard('crasher', 'Crasher1', 'Shaky_Grove');
    const db = new DatabaseSync(join(suite.app.dataDir, 'canopy.db'));
    const row = db.prepare('SELECT id FROM servers WHERE owner_id = ?').get(id) as { id: string };
    db.close();
    const enginePid = () => {
      try {
        return JSON.parse(readFileSync(join(suite.app.dataDir, 'servers', row.id, 'engine.json'), 'utf8'))
          .pid as number;
      } catch {
        return null; // between engines
      }
    };
    const online = page.locator('[data-testid="server-status"] [data-status="ONLINE"]');
    const offline = page.locator('[data-testid="server-status"] [data-status="OFFLINE"]');
    assert.equal(
      (await apiCall(suite.app.url, token, 'POST', `/users/${id}/server/Shaky_Grove/start`, {})).status,
      202,
    );
    await online.waitFor({ timeout: LIVE_TIMEOUT_MS });

    // The first crash is restarted; the second within a minute leaves the server down.
    const first = enginePid();
    assert.ok(first);
    process.kill(first, 'SIGKILL');
    const deadline = Date.now() + LIVE_TIMEOUT_MS;
    while (enginePid() === first || enginePid() === null) {
      assert.ok(Date.now() < deadline, 'the engine was restarted after the first crash');
      await new Promise((r) => setTimeout(r, 100));
    }
    await online.waitFor({ timeout: LIVE_TIMEOUT_MS });
    assert.equal(await page.getByTestId('banner-crash-loop').count(), 0, 'one crash is no loop');
    const noReload = await sameDocument(page);
    process.kill(enginePid() ?? 0, 'SIGKILL');
    await page
      .getByTestId('banner-crash-loop')
      .getByText(hostingMessages.crashLoop)
      .waitFor({ timeout: LIVE_TIMEOUT_MS });
    await offline.waitFor();
    await noReload();

    // Started again: the banner goes, and an ordinary stop afterwards does not bring it back.
    await page.getByTestId('server-start').click();
    await online.waitFor({ timeout: LIVE_TIMEOUT_MS });
    await page.getByTestId('banner-crash-loop').waitFor({ state: 'detached' });
    await page.getByTestId('server-stop').click();
    await offline.waitFor({ timeout: LIVE_TIMEOUT_MS });
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    assert.equal(await page.getByTestId('banner-crash-loop').count(), 0, 'no banner after a normal stop');
  });

  it('a failed /status shows UNKNOWN with the power buttons disabled, and Retry loads the truth', async () => {
    const { page } = await ownerOnDashboard('unsure', 'Unsure1', 'Foggy_Grove');
    const statusFeed = (url: URL) => url.pathname === '/status';
    await page.route(statusFeed, (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"boom"}' }),
    );
    await page.reload();
    await page.locator('[data-testid="server-status"] [data-status="UNKNOWN"]').waitFor({ timeout: LIVE_TIMEOUT_MS });
    for (const action of ['start', 'stop', 'restart']) {
      const button = page.getByTestId(`server-${action}`);
      assert.equal(await button.isDisabled(), true, action);
      assert.equal(await button.getAttribute('title'), hostingMessages.statusUnknown, action);
    }
    await page.getByTestId('server-actions-reason').getByText(hostingMessages.statusUnknown).waitFor();

    await page.unroute(statusFeed);
    await page.getByTestId('server-status-retry').click();
    await page.locator('[data-testid="server-status"] [data-status="OFFLINE"]').waitFor({ timeout: LIVE_TIMEOUT_MS });
    assert.equal(await page.getByTestId('server-start').isEnabled(), true);
  });
});
