import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { configurationMessages as c, defaultSettings, hostingMessages, serverPageMessages } from '@canopy/contract';
import type { Browser, Page } from 'playwright-core';
import { devUser } from '../../apps/api/src/dev-idp/dev-token.ts';
import { apiCall, apiSignIn } from './support/api.ts';
import { ADMIN_USERNAME, type RunningApp, setAvailableSlots, startApp } from './support/app.ts';
import { launchBrowser, signInAndRegister } from './support/browser.ts';

// A hosted server needs a moment to boot; its status and console lines then arrive over the socket.
const LIVE_TIMEOUT_MS = 60_000;
const SERVER_NAME = 'Kit_Grove';

describe('Configuration against the real api and engine', () => {
  let app: RunningApp;
  let browser: Browser;
  let owner: Page;
  let ownerApi: { id: string; token: string };
  before(async () => {
    app = await startApp();
    browser = await launchBrowser();
    owner = await registeredPage('kitowner', 'KitOwner1');
    setAvailableSlots(app, devUser('kitowner').id, 1);
    ownerApi = await apiSignIn(app.url, 'kitowner');
    const created = await apiCall(app.url, ownerApi.token, 'POST', `/users/${ownerApi.id}/server`, {
      serverName: SERVER_NAME,
    });
    assert.equal(created.status, 201);
    await owner.reload();
  });
  after(async () => {
    await browser?.close();
    await app?.stop();
  });

  async function registeredPage(username: string, growId: string): Promise<Page> {
    const page = await (await browser.newContext()).newPage();
    await signInAndRegister(page, app.url, username, growId);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    return page;
  }
  const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
  const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).first().waitFor();
  async function statusIs(page: Page, status: string) {
    try {
      await page
        .locator(`[data-testid="server-status"] [data-status="${status}"]`)
        .waitFor({ timeout: LIVE_TIMEOUT_MS });
    } catch (error) {
      throw new Error(`card never showed ${status}; app log:\n${app.output().slice(-3000)}`, { cause: error });
    }
  }

  it('edits the creator list and autofarm delay while the server is offline', async () => {
    await nav(owner).getByRole('link', { name: 'Configuration' }).click();
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
    const profile = await apiCall(app.url, ownerApi.token, 'GET', `/users/${ownerApi.id}/profile`);
    assert.equal(profile.body.profile.server.config.autofarmDelay, 1500);
  });

  it('gives a new player the newbie kit after Save Changes & Restart Server', async () => {
    await nav(owner).getByRole('link', { name: 'Dashboard' }).click();
    await owner.locator('[data-testid="socket-state"][data-state="OPEN"]').waitFor();
    await owner.getByTestId('server-start').click();
    await statusIs(owner, 'ONLINE');

    await nav(owner).getByRole('link', { name: 'Configuration' }).click();
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
      toast(owner, hostingMessages.actionSucceeded('restart')),
    ]);
    await owner.getByRole('tab', { name: 'Newbie Kit', selected: true }).waitFor({ timeout: LIVE_TIMEOUT_MS });
    await kitItems.getByText('x8', { exact: true }).waitFor();
    const kit = await apiCall(app.url, ownerApi.token, 'GET', `/users/${ownerApi.id}/server/newbie-kit`);
    assert.deepEqual(kit.body.ITEMS[0].items, [[10, 8]]);
    assert.equal(kit.body.ITEMS[0].Gemss, 300);

    await nav(owner).getByRole('link', { name: 'Dashboard' }).click();
    await statusIs(owner, 'ONLINE');
    await nav(owner).getByRole('link', { name: 'Console' }).click();
    const input = owner.getByTestId('console-input');
    await input.fill('register newbie1 pass1234');
    await input.press('Enter');
    await owner
      .getByTestId('console-line')
      .filter({ hasText: 'Registered newbie1 with the newbie kit: 300 gems, 1 item' })
      .first()
      .waitFor({ timeout: LIVE_TIMEOUT_MS });
    assert.equal(await owner.getByTestId('console-line').filter({ hasText: 'pass1234' }).count(), 0);

    await nav(owner).getByRole('link', { name: 'Player Database' }).click();
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
    const helper = await registeredPage('kithelper', 'KitHelper1');
    const invited = await apiCall(app.url, ownerApi.token, 'POST', `/users/${ownerApi.id}/server/collaborators`, {
      discordId: devUser('kithelper').id,
      permissions: ['console:use'],
    });
    assert.equal(invited.status, 201);
    await helper.goto(`${app.url}/configuration`);
    await helper.getByTestId('server-page-gate-message').getByText(serverPageMessages.noPermission).waitFor();
    assert.equal(await helper.getByRole('tab').count(), 0);
    const helperApi = await apiSignIn(app.url, 'kithelper');
    const refused = await apiCall(app.url, helperApi.token, 'GET', `/users/${helperApi.id}/server/creator-list`);
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error, serverPageMessages.noPermission);
  });

  it('hides the tabs an admin switched off, and says so when all are off', async () => {
    const admin = await apiSignIn(app.url, ADMIN_USERNAME);
    const registered = await apiCall(app.url, admin.token, 'POST', '/register', {
      discordId: admin.id,
      discordUsername: ADMIN_USERNAME,
      growId: 'KitAdmin1',
    });
    assert.equal(registered.status, 201);
    const flags = (settings: Partial<typeof defaultSettings>) =>
      apiCall(app.url, admin.token, 'POST', '/admin/settings', { ...defaultSettings, ...settings });
    try {
      assert.equal((await flags({ disableGeneralConfig: true, disableNewbieKit: true })).status, 200);
      await owner.goto(`${app.url}/configuration`);
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
