import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { configurationMessages as c, defaultSettings, serverPageMessages } from '@canopy/contract';
import type { Page } from 'playwright-core';
import { devUser } from '../../apps/api/src/dev-idp/dev-token.ts';
import { apiCall, apiSignIn, apiSignInRegistered } from './support/api.ts';
import { ADMIN_USERNAME } from './support/app.ts';
import { LIVE_TIMEOUT_MS, open, ownerWithServer, registeredPage, statusIs, toast } from './support/pages.ts';
import { useApp } from './support/suite.ts';

const SERVER_NAME = 'Kit_Grove';

describe('Configuration against the real api and engine', () => {
  let owner: Page;
  let ownerApi: { id: string; token: string };
  const suite = useApp();
  before(async () => {
    ({ page: owner, ...ownerApi } = await ownerWithServer(suite.browser, suite.app, {
      username: 'kitowner',
      growId: 'KitOwner1',
      serverName: SERVER_NAME,
    }));
  });

  it('edits the creator list and autofarm delay while the server is offline', async () => {
    await open(owner, 'Configuration');
    // allInnerTexts does not wait: read the tabs once the page shows them (it renders them all at once, after
    // a spinner while the server's data loads), not whatever was on screen right after the click.
    await owner.getByRole('tab', { name: 'General', selected: true }).waitFor();
    const tabs = await owner.getByRole('tab').allInnerTexts();
    assert.deepEqual(tabs, ['General', 'Newbie Kit', 'Custom Items', 'Custom Textures']);

    const creators = owner.getByTestId('creator-list-card');
    await creators.getByText('No creators yet.').waitFor();
    await creators.getByLabel('GrowID').fill('  Builder1  ');
    await creators.getByRole('button', { name: 'Add' }).click();
    await toast(owner, c.creatorAdded);
    await creators.getByRole('list', { name: 'Creators' }).getByText('Builder1', { exact: true }).waitFor();
    await creators.getByLabel('GrowID').fill('builder1');
    await creators.getByRole('button', { name: 'Add' }).click();
    await toast(owner, c.creatorExists('builder1'));
    await creators.getByRole('button', { name: 'Remove Builder1' }).click();
    await toast(owner, c.creatorRemoved);
    await creators.getByText('No creators yet.').waitFor();

    const settings = owner.getByTestId('server-settings-card');
    const delay = settings.getByLabel('Autofarm Delay (ms)');
    await owner.waitForFunction(
      () =>
        (document.querySelector('[data-testid="server-settings-card"] input') as HTMLInputElement)?.value === '1000',
    );
    await delay.fill('fast');
    await settings.getByRole('button', { name: 'Save Settings' }).click();
    await settings.getByText(c.invalidFarmDelay).waitFor();
    await delay.fill('1500');
    await settings.getByRole('button', { name: 'Save Settings' }).click();
    await toast(owner, c.farmDelayUpdated);
    const profile = await apiCall(suite.app.url, ownerApi.token, 'GET', `/users/${ownerApi.id}/profile`);
    assert.equal(profile.body.profile.server.config.autofarmDelay, 1500);
  });

  it('gives a new player the newbie kit after Save Changes & Restart Server', async () => {
    await open(owner, 'Dashboard');
    await owner.locator('[data-testid="socket-state"][data-state="OPEN"]').waitFor();
    await owner.getByTestId('server-start').click();
    await statusIs(owner, suite.app, 'ONLINE');

    await open(owner, 'Configuration');
    await owner.getByRole('tab', { name: 'Newbie Kit' }).click();
    await owner.getByTestId('kit-currency-card').getByLabel('Gems').fill('300');
    const add = owner.getByTestId('kit-add-card');
    await add.getByLabel('Search Item').fill('rock');
    const suggestions = add.getByRole('list', { name: 'Matching items' });
    await suggestions.getByRole('button', { name: /^Rock\s*ID 10$/ }).click();
    await add.getByLabel('Quantity').fill('0');
    await add.getByRole('button', { name: 'Add Item' }).click();
    await toast(owner, c.invalidQuantity);
    await add.getByLabel('Quantity').fill('5');
    await add.getByRole('button', { name: 'Add Item' }).click();
    // The same item again adds to its quantity.
    await add.getByLabel('Search Item').fill('10');
    await suggestions.getByRole('button', { name: /^Rock\s*ID 10$/ }).click();
    await add.getByLabel('Quantity').fill('3');
    await add.getByRole('button', { name: 'Add Item' }).click();
    const kitItems = owner.getByRole('list', { name: 'Kit items' });
    await kitItems.getByText('x8', { exact: true }).waitFor();
    assert.equal(await kitItems.getByRole('listitem').count(), 1);
    // A look at another tab keeps the unsaved kit (the tab used to start again from the stored one).
    await owner.getByRole('tab', { name: 'Custom Items' }).click();
    await owner.getByTestId('custom-items-add').waitFor();
    await owner.getByRole('tab', { name: 'Newbie Kit' }).click();
    await kitItems.getByText('x8', { exact: true }).waitFor();
    assert.equal(await owner.getByTestId('kit-currency-card').getByLabel('Gems').inputValue(), '300');

    await owner.getByRole('button', { name: 'Save Changes & Restart Server' }).click();
    // The restart swaps the tabs for the busy message; once the server is online again the page is back on
    // the Newbie Kit tab (it used to fall back to General), showing the saved kit. The toasts live 5 s, so
    // they are watched for from the click on, not only once the busy message showed.
    await Promise.all([
      owner.getByTestId('server-page-gate').waitFor({ timeout: LIVE_TIMEOUT_MS }),
      toast(owner, c.newbieKitUpdated),
      toast(owner, c.appliedRestarting),
    ]);
    await owner.getByRole('tab', { name: 'Newbie Kit', selected: true }).waitFor({ timeout: LIVE_TIMEOUT_MS });
    await kitItems.getByText('x8', { exact: true }).waitFor();
    const kit = await apiCall(suite.app.url, ownerApi.token, 'GET', `/users/${ownerApi.id}/server/newbie-kit`);
    assert.deepEqual(kit.body.ITEMS[0].items, [[10, 8]]);
    assert.equal(kit.body.ITEMS[0].Gemss, 300);

    await open(owner, 'Dashboard');
    await statusIs(owner, suite.app, 'ONLINE');
    await open(owner, 'Console');
    const input = owner.getByTestId('console-input');
    await input.fill('register newbie1 pass1234');
    await input.press('Enter');
    await owner
      .getByTestId('console-line')
      .filter({ hasText: 'Registered newbie1 with the newbie kit: 300 gems, 1 item' })
      .first()
      .waitFor({ timeout: LIVE_TIMEOUT_MS });
    assert.equal(await owner.getByTestId('console-line').filter({ hasText: 'pass1234' }).count(), 0);

    await open(owner, 'Player Database');
    const row = owner.locator('[data-testid="player-row"][data-name="newbie1"]');
    await row.getByText('300', { exact: true }).waitFor();
    await row.getByTestId('player-edit').click();
    const editor = owner.locator('[data-testid="player-editor"][data-state="loaded"]');
    await editor.getByRole('tab', { name: 'Inventory' }).click();
    const slot = editor.locator('[data-testid="inventory-row"][data-item-id="10"]');
    await slot.waitFor();
    assert.equal(await slot.getByRole('spinbutton').inputValue(), '8');
  });

  it('keeps a collaborator without config:manage out, in the page and in the api', async () => {
    const helper = await registeredPage(suite.browser, suite.app, 'kithelper', 'KitHelper1');
    const invited = await apiCall(suite.app.url, ownerApi.token, 'POST', `/users/${ownerApi.id}/server/collaborators`, {
      discordId: devUser('kithelper').id,
      permissions: ['console:use'],
    });
    assert.equal(invited.status, 201);
    await helper.goto(`${suite.app.url}/configuration`);
    await helper.getByTestId('server-page-gate-message').getByText(serverPageMessages.noPermission).waitFor();
    assert.equal(await helper.getByRole('tab').count(), 0);
    const helperApi = await apiSignIn(suite.app.url, 'kithelper');
    const refused = await apiCall(suite.app.url, helperApi.token, 'GET', `/users/${helperApi.id}/server/creator-list`);
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error, serverPageMessages.noPermission);
  });

  it('hides the tabs an admin switched off, and says so when all are off', async () => {
    const admin = await apiSignInRegistered(suite.app.url, ADMIN_USERNAME, 'KitAdmin1');
    const flags = (settings: Partial<typeof defaultSettings>) =>
      apiCall(suite.app.url, admin.token, 'POST', '/admin/settings', { ...defaultSettings, ...settings });
    try {
      assert.equal((await flags({ disableGeneralConfig: true, disableNewbieKit: true })).status, 200);
      await owner.goto(`${suite.app.url}/configuration`);
      await owner.getByRole('tab', { name: 'Custom Items', selected: true }).waitFor();
      assert.deepEqual(await owner.getByRole('tab').allInnerTexts(), ['Custom Items', 'Custom Textures']);

      const allOff = await flags({ disableGeneralConfig: true, disableNewbieKit: true, disableCustomItems: true });
      assert.equal(allOff.status, 200);
      await owner.reload();
      // The shell locks the page with the spec's text for all sections being off.
      await owner.getByText(c.allDisabled, { exact: true }).waitFor();
      assert.equal(await owner.getByRole('tab').count(), 0);
    } finally {
      await flags({});
    }
  });
});
