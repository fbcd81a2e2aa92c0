import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hostingMessages, serverPageMessages, WORLD_LOCKED } from '@canopy/contract';
import { apiCall, apiCreateServer, apiSignIn, apiSignInRegistered } from './support/api.ts';
import { LIVE_TIMEOUT_MS, open, ownerWithServer, registeredPage, statusIs, toast } from './support/pages.ts';
import { useApp } from './support/suite.ts';

describe('World Manager and Player Database against a running server', () => {
  const suite = useApp();

  it('edits and locks a world that survives a restart, and bans a player', async () => {
    const username = 'worldsmith';
    const growId = 'Smith1';
    const { page, id, token } = await ownerWithServer(suite.browser, suite.app, {
      username,
      growId,
      serverName: 'Smith_Grove',
    });

    // Offline: both pages say so instead of loading.
    await open(page, 'World Manager');
    await page.getByTestId('server-page-gate-message').getByText(serverPageMessages.worldsOffline).waitFor();
    await open(page, 'Player Database');
    await page.getByTestId('server-page-gate-message').getByText(serverPageMessages.playersOffline).waitFor();

    await open(page, 'Dashboard');
    await page.locator('[data-testid="socket-state"][data-state="OPEN"]').waitFor();
    await page.getByTestId('server-start').click();
    await statusIs(page, suite.app, 'ONLINE');

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
    const locked = await apiCall(suite.app.url, token, 'GET', `/users/${id}/server/worlds/START`);
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
    await statusIs(page, suite.app, 'ONLINE');
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
    const seeded = await apiCall(suite.app.url, token, 'PUT', `/users/${id}/server/players/${victim}`, {
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
    const banned = await apiCall(suite.app.url, token, 'GET', `/users/${id}/server/players/${victim}`);
    assert.equal(banned.status, 200);
    assert.equal(banned.body.banned, true);

    // The banned player is marked in the list, and Unban there lifts the ban.
    await row.getByTestId('player-banned').waitFor();
    await row.getByTestId('player-unban').click();
    await toast(page, serverPageMessages.playerUnbanned);
    await row.getByTestId('player-ban').waitFor();
    assert.equal(await row.getByTestId('player-banned').count(), 0);
    assert.equal(
      (await apiCall(suite.app.url, token, 'GET', `/users/${id}/server/players/${victim}`)).body.banned,
      false,
    );

    // The editor marks a banned player too; unbanning there and then saving an edit keeps the ban lifted.
    await apiCall(suite.app.url, token, 'DELETE', `/users/${id}/server/players/${victim}`);
    await page.getByTestId('players-refresh').click();
    await row.getByTestId('player-banned').waitFor();
    await row.getByTestId('player-edit').click();
    await playerEditor.getByTestId('player-banned').waitFor();
    await playerEditor.getByTestId('player-editor-unban').click();
    await toast(page, serverPageMessages.playerUnbanned);
    await playerEditor.getByTestId('player-editor-unban').waitFor({ state: 'detached' });
    await playerEditor.getByRole('tab', { name: 'Stats & Bank' }).click();
    await playerEditor.getByLabel('Gems').fill('1000');
    await playerEditor.getByTestId('player-save').click();
    await page.getByTestId('player-editor').waitFor({ state: 'detached' });
    const edited = await apiCall(suite.app.url, token, 'GET', `/users/${id}/server/players/${victim}`);
    assert.deepEqual([edited.body.gems, edited.body.banned], [1000, false]);
  });

  it('lets a collaborator in only where a permission allows it', async () => {
    const owner = await apiSignInRegistered(suite.app.url, 'landlord', 'Landlord1');
    await apiCreateServer(suite.app, owner, 'Shared_Grove', { start: true });

    const page = await registeredPage(suite.browser, suite.app, 'helper', 'Helper1');
    const helper = await apiSignIn(suite.app.url, 'helper');
    const added = await apiCall(suite.app.url, owner.token, 'POST', `/users/${owner.id}/server/collaborators`, {
      discordId: helper.id,
      permissions: ['players:manage'],
    });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    await page.reload();

    await open(page, 'World Manager');
    await page.getByTestId('server-page-gate-message').getByText(serverPageMessages.noPermissionWorlds).waitFor();
    const refused = await apiCall(suite.app.url, helper.token, 'GET', `/users/${helper.id}/server/worlds`);
    assert.equal(refused.status, 403, 'the api is the one that refuses');

    await open(page, 'Player Database');
    await page.getByTestId('players-table').waitFor({ timeout: LIVE_TIMEOUT_MS });
    await page.getByTestId('players-empty').getByText(serverPageMessages.noPlayers).waitFor();
  });

  it('works on a phone: actions on screen, a title per page, editor errors beside the field', async () => {
    const username = 'pocket';
    const page = await registeredPage(suite.browser, suite.app, username, 'Pocket1', {
      viewport: { width: 390, height: 844 },
    });
    assert.equal(await page.title(), 'Dashboard · Canopy');
    const icon = await page.locator('link[rel="icon"]').getAttribute('href');
    const served = await fetch(new URL(icon ?? '/missing', suite.app.url));
    assert.equal(served.status, 200);
    assert.match(served.headers.get('content-type') ?? '', /^image\/svg\+xml/);

    const { id, token } = await apiSignIn(suite.app.url, username);
    await apiCreateServer(suite.app, { id, token }, 'Pocket_Grove', { start: true });
    await page.reload();
    await statusIs(page, suite.app, 'ONLINE');
    const seeded = await apiCall(suite.app.url, token, 'PUT', `/users/${id}/server/players/AVeryLongPlayerName1`, {
      pass: 'seedpass1',
      email: '',
      home_world: '',
      level: 999,
      gems: 2_000_000_000,
      xp: 0,
      wl_bank_amount: 0,
      dl_bank_amount: 0,
      'Role.Moderator': true,
      'Role.VIP': true,
      inventory: [],
    });
    assert.equal(seeded.status, 200);

    /** Every action button of the table's rows lies inside the 390 px viewport. */
    async function actionsOnScreen(rowTestId: string) {
      const boxes = await page.locator(`[data-testid="${rowTestId}"] button`).evaluateAll((buttons) =>
        buttons.map((b) => {
          const r = b.getBoundingClientRect();
          return { text: b.textContent, left: r.left, right: r.right, width: r.width };
        }),
      );
      assert.ok(boxes.length >= 2, `${rowTestId}: no action buttons found`);
      for (const box of boxes)
        assert.ok(
          box.width > 0 && box.left >= 0 && box.right <= 390,
          `${box.text} is off-screen: ${JSON.stringify(box)}`,
        );
    }

    // The sidebar is a menu on a phone.
    await page.getByRole('button', { name: 'Menu' }).click();
    await open(page, 'World Manager');
    await page.locator('[data-testid="world-row"][data-name="START"]').waitFor({ timeout: LIVE_TIMEOUT_MS });
    assert.equal(await page.title(), 'World Manager · Canopy');
    await actionsOnScreen('world-row');

    // A refused save opens the tab of the first problem and says what is wrong beside the field.
    await page.locator('[data-testid="world-row"][data-name="START"]').getByTestId('world-edit').click();
    const editor = page.locator('[data-testid="world-editor"][data-state="loaded"]');
    await editor.getByRole('tab', { name: 'Appearance' }).click();
    await editor.getByLabel('Red').fill('300');
    await editor.getByRole('tab', { name: 'General' }).click();
    await editor.getByTestId('world-save').click();
    const message = 'Red must be between 0 and 255.';
    await toast(page, message);
    assert.equal(await editor.getByRole('tab', { name: 'Appearance' }).getAttribute('aria-selected'), 'true');
    const red = editor.getByLabel('Red');
    assert.equal(await red.getAttribute('aria-invalid'), 'true');
    const note = await red.getAttribute('aria-describedby');
    assert.equal(await page.locator(`[id="${note}"]`).textContent(), message);
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    const untouched = await apiCall(suite.app.url, token, 'GET', `/users/${id}/server/worlds/START`);
    assert.notEqual(untouched.body.r, 300);

    await page.getByRole('button', { name: 'Menu' }).click();
    await open(page, 'Player Database');
    await page.locator('[data-testid="player-row"][data-name="AVeryLongPlayerName1"]').waitFor();
    assert.equal(await page.title(), 'Player Database · Canopy');
    await actionsOnScreen('player-row');
  });
});
