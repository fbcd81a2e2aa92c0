import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { backupMessages as b, hostingMessages, serverPageMessages } from '@canopy/contract';
import type { Browser, Page } from 'playwright-core';
import { devUser } from '../../apps/api/src/dev-idp/dev-token.ts';
import { apiCall, apiSignIn } from './support/api.ts';
import { type RunningApp, setAvailableSlots, startApp } from './support/app.ts';
import { launchBrowser, signInAndRegister } from './support/browser.ts';

// A hosted server needs a moment to boot; the status then arrives over the socket.
const LIVE_TIMEOUT_MS = 60_000;

describe('Backup Manager against a running server', () => {
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

  const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).first().waitFor();
  const open = (page: Page, label: string) =>
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label }).click();
  const state = (page: Page, name: string) =>
    page.locator(`[data-testid="backup-state"][data-state="${name}"]`).waitFor({ timeout: LIVE_TIMEOUT_MS });

  async function statusIs(page: Page, status: string) {
    try {
      await page
        .locator(`[data-testid="server-status"] [data-status="${status}"]`)
        .waitFor({ timeout: LIVE_TIMEOUT_MS });
    } catch (error) {
      throw new Error(`card never showed ${status}; app log:\n${app.output().slice(-3000)}`, { cause: error });
    }
  }

  it('creates a backup, restores it over a changed world, and the restarted server has the old world', async () => {
    const username = 'archivist';
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await signInAndRegister(page, app.url, username, 'Archie1');
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();

    // No server yet: the page says so and links to the dashboard.
    await open(page, b.title);
    await page.getByRole('heading', { name: b.title }).waitFor();
    await state(page, 'no-server');
    await page.getByText(b.noServer, { exact: true }).waitFor();
    await page.getByTestId('backup-tip').getByText(b.tip).waitFor();

    setAvailableSlots(app, devUser(username).id, 1);
    const { id, token } = await apiSignIn(app.url, username);
    const serverName = 'Archive_Grove';
    assert.equal((await apiCall(app.url, token, 'POST', `/users/${id}/server`, { serverName })).status, 201);
    await open(page, 'Dashboard');
    await page.reload();
    await page.locator('[data-testid="socket-state"][data-state="OPEN"]').waitFor();
    await page.getByTestId('server-start').click();
    await statusIs(page, 'ONLINE');

    // The world as it will be in the backup: 123 BPM.
    const worldPath = `/users/${id}/server/worlds/START`;
    const world = (await apiCall(app.url, token, 'GET', worldPath)).body;
    assert.equal((await apiCall(app.url, token, 'PUT', worldPath, { ...world, music_bpm: 123 })).status, 200);

    await open(page, b.title);
    await state(page, 'none');
    await page.getByText(b.none, { exact: true }).waitFor();
    await page.getByRole('button', { name: b.create }).click();
    await toast(page, b.created);
    await state(page, 'found');
    await page.getByText(b.found, { exact: true }).waitFor();
    assert.match(
      (await page.getByTestId('backup-created').textContent()) ?? '',
      /^\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}:\d{2}$/,
    );
    assert.match((await page.getByTestId('backup-size').textContent()) ?? '', /^[\d.]+[KM]B$/);
    await page.screenshot({ path: '/tmp/backup-page-desktop.png', fullPage: true });

    // A second create is refused by the api with the "delete first" text.
    const second = await apiCall(app.url, token, 'POST', `/users/${id}/server/backup`);
    assert.equal(second.status, 409);
    assert.equal(second.body.error, b.alreadyExists);

    // The world changes in the World Manager after the backup.
    await open(page, 'World Manager');
    const start = page.locator('[data-testid="world-row"][data-name="START"]');
    await start.getByTestId('world-edit').click();
    const editor = page.locator('[data-testid="world-editor"][data-state="loaded"]');
    await editor.getByLabel('Music BPM').fill('177');
    await editor.getByTestId('world-save').click();
    await toast(page, serverPageMessages.worldSaved);
    assert.equal((await apiCall(app.url, token, 'GET', worldPath)).body.music_bpm, 177);

    // Restore, behind its confirm dialog; Cancel first changes nothing.
    await open(page, b.title);
    await state(page, 'found');
    await page.getByRole('button', { name: b.restore }).click();
    await page.getByRole('dialog').getByText(b.restoreConfirm).waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: b.restore }).click();
    await page.getByRole('dialog').getByRole('button', { name: b.restore }).click();
    await toast(page, b.restored);

    // The server was stopped; the user restarts it from the dashboard and finds the old world.
    await open(page, 'Dashboard');
    await statusIs(page, 'OFFLINE');
    await page.getByTestId('server-start').click();
    await toast(page, hostingMessages.actionSucceeded('start'));
    await statusIs(page, 'ONLINE');
    await open(page, 'World Manager');
    await page.reload();
    await start.getByTestId('world-edit').click();
    await editor.waitFor();
    assert.equal(await editor.getByLabel('Music BPM').inputValue(), '123');
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

    // Delete, behind its confirm dialog: back to 'No Backup Found'.
    await open(page, b.title);
    await state(page, 'found');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: '/tmp/backup-page-phone.png', fullPage: true });
    await page.getByRole('button', { name: b.delete }).click();
    await page.getByRole('dialog').getByText(b.deleteConfirm).waitFor();
    await page.getByRole('dialog').getByRole('button', { name: b.delete }).click();
    await toast(page, b.deleted);
    await state(page, 'none');
  });

  it('shows the fetch error in place of the content', async () => {
    const page = await (await browser.newContext()).newPage();
    await signInAndRegister(page, app.url, 'archivist2', 'Archie2');
    setAvailableSlots(app, devUser('archivist2').id, 1);
    const { id, token } = await apiSignIn(app.url, 'archivist2');
    assert.equal(
      (await apiCall(app.url, token, 'POST', `/users/${id}/server`, { serverName: 'Archive_Two' })).status,
      201,
    );
    await page.route('**/server/backup', (route) =>
      route.request().method() === 'GET' ? route.fulfill({ status: 500, body: 'oops' }) : route.continue(),
    );
    await page.reload();
    await open(page, b.title);
    await state(page, 'error');
    await page.getByTestId('backup-state').getByText(b.fetchFailed, { exact: true }).waitFor();
    // Like every failure (spec section 8), it is an error toast too.
    await page.getByRole('alert').filter({ hasText: b.fetchFailed }).waitFor();
  });
});
