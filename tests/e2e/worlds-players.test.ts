import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hostingMessages, serverPageMessages, WORLD_LOCKED } from '@canopy/contract';
import type { Browser, Page } from 'playwright-core';
import { devUser } from '../../apps/api/src/dev-idp/dev-token.ts';
import { apiCall, apiSignIn } from './support/api.ts';
import { type RunningApp, setAvailableSlots, startApp } from './support/app.ts';
import { launchBrowser, signInAndRegister } from './support/browser.ts';

// A hosted server needs a moment to boot; the status then arrives over the socket.
const LIVE_TIMEOUT_MS = 60_000;

describe('World Manager and Player Database against a running server', () => {
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

  /** Waits for the dashboard card to show `status`; a timeout says what the page and the app said. */
  async function statusIs(page: Page, status: string) {
    try {
      await page
        .locator(`[data-testid="server-status"] [data-status="${status}"]`)
        .waitFor({ timeout: LIVE_TIMEOUT_MS });
    } catch (error) {
      throw new Error(`card never showed ${status}; app log:\n${app.output().slice(-3000)}`, { cause: error });
    }
  }

  it('edits and locks a world that survives a restart, and bans a player', async () => {
    const username = 'worldsmith';
    const growId = 'Smith1';
    const page = await (await browser.newContext()).newPage();
    await signInAndRegister(page, app.url, username, growId);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    setAvailableSlots(app, devUser(username).id, 1);
    const { id, token } = await apiSignIn(app.url, username);
    const serverName = 'Smith_Grove';
    const created = await apiCall(app.url, token, 'POST', `/users/${id}/server`, { serverName });
    assert.equal(created.status, 201);
    await page.reload();

    // Offline: both pages say so instead of loading.
    await open(page, 'World Manager');
    await page.getByTestId('server-page-gate-message').getByText(serverPageMessages.worldsOffline).waitFor();
    await open(page, 'Player Database');
    await page.getByTestId('server-page-gate-message').getByText(serverPageMessages.playersOffline).waitFor();

    await open(page, 'Dashboard');
    await page.locator('[data-testid="socket-state"][data-state="OPEN"]').waitFor();
    await page.getByTestId('server-start').click();
    await statusIs(page, 'ONLINE');

    // The starting world is listed; edit it from the General tab.
    await open(page, 'World Manager');
    const start = page.locator('[data-testid="world-row"][data-name="START"]');
    await start.waitFor();
    await start.getByTestId('world-edit').click();
    const editor = page.locator('[data-testid="world-editor"][data-state="loaded"]');
    await editor.waitFor();
    await editor.getByLabel('Music BPM').fill('140');
    await editor.getByLabel('Owner').fill(growId);
    await editor.getByTestId('world-save').click();
    await toast(page, serverPageMessages.worldSaved);
    await page.getByTestId('world-editor').waitFor({ state: 'detached' });
    await start.getByText(growId, { exact: true }).waitFor();

    // Invalid JSON on the Raw JSON tab blocks saving.
    await start.getByTestId('world-edit').click();
    await editor.waitFor();
    await editor.getByRole('tab', { name: 'Raw JSON' }).click();
    await editor.getByTestId('raw-json').fill('{ "owner": ');
    await editor.getByText(serverPageMessages.invalidJson).waitFor();
    await editor.getByTestId('world-save').click();
    await toast(page, serverPageMessages.cannotSaveInvalidJson);
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

    // Lock it: the switch flips at once and the engine stores d_weather 6.
    const lock = start.getByRole('switch', { name: 'Lock START' });
    assert.equal(await lock.getAttribute('aria-checked'), 'false');
    const saved = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().endsWith('/worlds/START'));
    await lock.click();
    await start.locator('[role="switch"][aria-checked="true"]').waitFor();
    assert.equal((await saved).status(), 200);
    const locked = await apiCall(app.url, token, 'GET', `/users/${id}/server/worlds/START`);
    assert.equal(locked.body.d_weather, WORLD_LOCKED);

    // A refused save puts the switch back and shows the api's error (the refusal is injected: a
    // real one needs the server to stop between the status check and the save).
    const refusal = 'Your server is shutting down.';
    await page.route(`**/users/${id}/server/worlds/START`, (route) =>
      route.request().method() === 'PUT'
        ? route.fulfill({ status: 409, json: { error: refusal, code: 'server_stopping' } })
        : route.continue(),
    );
    await lock.click();
    await toast(page, refusal);
    await start.locator('[role="switch"][aria-checked="true"]').waitFor();
    await page.unroute(`**/users/${id}/server/worlds/START`);

    // Restart from the dashboard; the edit and the lock are still there afterwards.
    await open(page, 'Dashboard');
    await page.getByTestId('server-restart').click();
    await toast(page, hostingMessages.actionSucceeded('restart'));
    await statusIs(page, 'ONLINE');
    await open(page, 'World Manager');
    // A reload drops the cached list, so the row below is what the restarted engine answers.
    await page.reload();
    await start.waitFor();
    assert.equal(await lock.getAttribute('aria-checked'), 'true');
    await start.getByTestId('world-edit').click();
    await editor.waitFor();
    assert.equal(await editor.getByLabel('Music BPM').inputValue(), '140');
    assert.equal(await editor.getByLabel('Owner').inputValue(), growId);
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

    // A player seeded through the api is listed, filtered and banned.
    const victim = 'Victim7';
    const seeded = await apiCall(app.url, token, 'PUT', `/users/${id}/server/players/${victim}`, {
      pass: 'seedpass1',
      email: '',
      home_world: '',
      level: 12,
      gems: 12345,
      xp: 0,
      wl_bank_amount: 0,
      dl_bank_amount: 0,
      'Role.VIP': true,
      inventory: [[2, 5]],
    });
    assert.ok(seeded.status === 200 || seeded.status === 201, `seeding answered ${seeded.status}`);
    await open(page, 'Player Database');
    const row = page.locator(`[data-testid="player-row"][data-name="${victim}"]`);
    await row.waitFor();
    await row.getByText((12345).toLocaleString('en-US'), { exact: true }).waitFor();
    await row.getByText('VIP', { exact: true }).waitFor();

    // Edit from the Stats & Bank tab; the list shows the saved value.
    await row.getByTestId('player-edit').click();
    const playerEditor = page.locator('[data-testid="player-editor"][data-state="loaded"]');
    await playerEditor.waitFor();
    await playerEditor.getByRole('tab', { name: 'Stats & Bank' }).click();
    await playerEditor.getByLabel('Gems').fill('999');
    await playerEditor.getByTestId('player-save').click();
    await toast(page, serverPageMessages.playerSaved);
    await row.getByText('999', { exact: true }).waitFor();

    await page.getByTestId('players-search').fill('nobody-like-this');
    await page.getByTestId('players-empty').getByText(serverPageMessages.noPlayersMatch).waitFor();
    await page.getByTestId('players-search').fill('victim');
    await row.getByTestId('player-ban').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm Ban' }).click();
    await toast(page, serverPageMessages.playerBanned);
    const banned = await apiCall(app.url, token, 'GET', `/users/${id}/server/players/${victim}`);
    assert.equal(banned.status, 200);
    assert.equal(banned.body.banned, true);
  });

  it('lets a collaborator in only where a permission allows it', async () => {
    const owner = await apiSignIn(app.url, 'landlord');
    const call = (method: string, path: string, body?: unknown) => apiCall(app.url, owner.token, method, path, body);
    const registered = await call('POST', '/register', {
      discordId: owner.id,
      discordUsername: 'landlord',
      growId: 'Landlord1',
    });
    assert.equal(registered.status, 201);
    setAvailableSlots(app, devUser('landlord').id, 1);
    const serverName = 'Shared_Grove';
    assert.equal((await call('POST', `/users/${owner.id}/server`, { serverName })).status, 201);
    assert.equal((await call('POST', `/users/${owner.id}/server/${serverName}/start`)).status, 202);

    const page = await (await browser.newContext()).newPage();
    await signInAndRegister(page, app.url, 'helper', 'Helper1');
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    const helper = await apiSignIn(app.url, 'helper');
    const added = await call('POST', `/users/${owner.id}/server/collaborators`, {
      discordId: helper.id,
      permissions: ['players:manage'],
    });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    await page.reload();

    await open(page, 'World Manager');
    await page.getByTestId('server-page-gate-message').getByText(serverPageMessages.noPermissionWorlds).waitFor();
    const refused = await apiCall(app.url, helper.token, 'GET', `/users/${helper.id}/server/worlds`);
    assert.equal(refused.status, 403, 'the api is the one that refuses');

    await open(page, 'Player Database');
    await page.getByTestId('players-table').waitFor({ timeout: LIVE_TIMEOUT_MS });
    await page.getByTestId('players-empty').getByText(serverPageMessages.noPlayers).waitFor();
  });
});
