import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backupMessages as b, hostingMessages, serverPageMessages } from '@canopy/contract';
import type { Page } from 'playwright-core';
import { apiCall, apiCreateServer, apiSignIn } from './support/api.ts';
import { signInAndRegister } from './support/browser.ts';
import { LIVE_TIMEOUT_MS, open, registeredPage, statusIs, toast } from './support/pages.ts';
import { useApp } from './support/suite.ts';

describe('Backup Manager against a running server', () => {
  const suite = useApp();

  const state = (page: Page, name: string) =>
    page.locator(`[data-testid="backup-state"][data-state="${name}"]`).waitFor({ timeout: LIVE_TIMEOUT_MS });

  it('creates a backup, restores it over a changed world, and the restarted server has the old world', async () => {
    const username = 'archivist';
    const page = await registeredPage(suite.browser, suite.app, username, 'Archie1', {
      viewport: { width: 1280, height: 900 },
    });

    // No server yet: the page says so and links to the dashboard.
    await open(page, b.title);
    await page.getByRole('heading', { name: b.title }).waitFor();
    await state(page, 'no-server');
    await page.getByText(b.noServer, { exact: true }).waitFor();
    await page.getByTestId('backup-tip').getByText(b.tip).waitFor();

    const { id, token } = await apiSignIn(suite.app.url, username);
    await apiCreateServer(suite.app, { id, token }, 'Archive_Grove');
    await open(page, 'Dashboard');
    await page.reload();
    await page.locator('[data-testid="socket-state"][data-state="OPEN"]').waitFor();
    await page.getByTestId('server-start').click();
    await statusIs(page, suite.app, 'ONLINE');

    // The world as it will be in the backup: 123 BPM.
    const worldPath = `/users/${id}/server/worlds/START`;
    const world = (await apiCall(suite.app.url, token, 'GET', worldPath)).body;
    assert.equal((await apiCall(suite.app.url, token, 'PUT', worldPath, { ...world, music_bpm: 123 })).status, 200);

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
    const second = await apiCall(suite.app.url, token, 'POST', `/users/${id}/server/backup`);
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
    assert.equal((await apiCall(suite.app.url, token, 'GET', worldPath)).body.music_bpm, 177);

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
    await statusIs(page, suite.app, 'OFFLINE');
    await page.getByTestId('server-start').click();
    await toast(page, hostingMessages.actionSucceeded('start'));
    await statusIs(page, suite.app, 'ONLINE');
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
    const page = await (await suite.browser.newContext()).newPage();
    await signInAndRegister(page, suite.app.url, 'archivist2', 'Archie2');
    await apiCreateServer(suite.app, await apiSignIn(suite.app.url, 'archivist2'), 'Archive_Two');
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
