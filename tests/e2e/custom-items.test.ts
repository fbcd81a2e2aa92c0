import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { customItemsMessages as t } from '@canopy/contract';
import { encode } from 'fast-png';
import type { Page } from 'playwright-core';
import { apiCall } from './support/api.ts';
import { LIVE_TIMEOUT_MS, open, ownerWithServer, statusIs, toast } from './support/pages.ts';
import { useApp } from './support/suite.ts';

const SERVER_NAME = 'Texture_Grove';
// One colour the sprite check can recognise: a ruby red, fully opaque.
const RUBY = [200, 20, 60, 255];

/** A 32x32 PNG of one colour. */
function rubyPng(): Buffer {
  const data = new Uint8Array(32 * 32 * 4).map((_, i) => RUBY[i % 4] as number);
  return Buffer.from(encode({ width: 32, height: 32, channels: 4, data }));
}

describe('Custom Textures and Custom Items against the real api and engine', () => {
  let page: Page;
  let owner: { id: string; token: string };
  const suite = useApp();
  before(async () => {
    ({ page, ...owner } = await ownerWithServer(
      suite.browser,
      suite.app,
      { username: 'texturer', growId: 'Texturer1', serverName: SERVER_NAME },
      { start: true },
    ));
  });

  /** The one hosted server's data directory (the app runs only this server). */
  const serverDir = () => {
    const [id = ''] = readdirSync(join(suite.app.dataDir, 'servers')).filter((name) => !name.startsWith('.'));
    return join(suite.app.dataDir, 'servers', id);
  };
  const engineState = (): { pid: number } => JSON.parse(readFileSync(join(serverDir(), 'engine.json'), 'utf8'));
  /** Waits until an engine other than `pid` runs and has built its items.dat (it does so just after READY). */
  async function restartedEngine(pid: number) {
    const deadline = Date.now() + LIVE_TIMEOUT_MS;
    for (;;) {
      try {
        const state = engineState();
        const itemsDat = readFileSync(join(serverDir(), 'effective-items.dat'));
        if (state.pid !== pid && itemsDat.includes(Buffer.from('custom_'))) return { state, itemsDat };
      } catch {
        // engine.json is absent between the two engines.
      }
      if (Date.now() > deadline) throw new Error(`the server was not restarted:\n${suite.app.output().slice(-3000)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const openTab = async (name: string) => {
    await open(page, 'Configuration');
    await page.getByRole('tab', { name }).click();
  };

  it('uploads a PNG, creates the item, restarts the server and shows the sprite in the Item Database', async () => {
    await statusIs(page, suite.app, 'ONLINE');
    const firstPid = engineState().pid;
    await openTab('Custom Textures');
    const file = page.getByTestId('custom-texture-file');

    // A file named .png that is not one is refused by its signature.
    await file.setInputFiles({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('GIF89a not a png') });
    await toast(page, t.onlyPng);
    await page.getByTestId('custom-texture-create').click();
    await toast(page, t.fillAll);

    await file.setInputFiles({ name: 'ruby.png', mimeType: 'image/png', buffer: rubyPng() });
    await page.getByTestId('custom-texture-preview').waitFor();
    await page.getByTestId('custom-texture-name').fill('Glimmer Tile');
    await page.getByTestId('custom-texture-advanced').click();
    await page.getByTestId('custom-texture-break_hits').fill('3');
    await page.getByTestId('custom-texture-create').click();
    await toast(page, t.created);

    // The restart went out: the card leaves ONLINE and comes back with the rebuilt items.dat.
    await open(page, 'Dashboard');
    await statusIs(page, suite.app, 'ONLINE');
    const config = await apiCall(suite.app.url, owner.token, 'GET', `/users/${owner.id}/server/item-config`);
    const ruby = config.body.items.find((i: { Name: string }) => i.Name === 'Glimmer Tile');
    assert.ok(ruby, 'the item was saved');
    assert.equal(ruby.rarity, 999);
    assert.equal(ruby.texture.break_hits, 3);
    const engine = await restartedEngine(firstPid);
    assert.ok(engine.itemsDat.includes(Buffer.from(ruby.texture.file)), 'the new engine built items.dat with the item');

    // The Item Database lists it and draws its sprite from /cache/{file}.
    await open(page, 'Item Database');
    await page.getByTestId('items-search').fill('Glimmer Tile');
    const tile = page.getByTestId('item-tile').filter({ hasText: `#${ruby.ID} ` });
    await tile.click();
    const sprite = page.locator('[data-testid="item-preview-sprite"][data-state="drawn"]');
    await sprite.waitFor();
    const centre = await sprite.evaluate((canvas: HTMLCanvasElement) =>
      Array.from(canvas.getContext('2d')?.getImageData(48, 48, 1, 1).data ?? []),
    );
    assert.deepEqual(centre, RUBY, 'the sprite is the uploaded image');
    await page.keyboard.press('Escape');
    await page.getByTestId('item-preview').waitFor({ state: 'detached' });
  });

  it('adds, edits and deletes custom items and saves them with a restart', async () => {
    await openTab('Custom Items');
    const cards = page.getByTestId('custom-item-card');
    await cards.filter({ hasText: 'Glimmer Tile' }).waitFor();
    await page.getByTestId('custom-items-add').click();
    await page.getByTestId('custom-items-add').click();
    await toast(page, t.oneNewItem);
    const fresh = cards.nth(1);
    await fresh.getByTestId('custom-item-name').fill('Lucky Clover');
    await fresh.getByTestId('custom-item-Gems').fill('25');
    await page.getByTestId('custom-items-add').click();
    await cards.filter({ hasText: 'New Item' }).getByRole('button', { name: 'Delete New Item' }).click();
    await page.getByText(t.confirmDelete).waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByTestId('custom-items-save').click();
    await toast(page, t.updated);
    const config = await apiCall(suite.app.url, owner.token, 'GET', `/users/${owner.id}/server/item-config`);
    const names = config.body.items.map((i: { Name: string }) => i.Name);
    assert.deepEqual(names, ['Glimmer Tile', 'Lucky Clover']);
    assert.equal(config.body.items[1].Gems, 25);
    assert.equal(config.body.items[1].ID, config.body.items[0].ID + 1);
    await open(page, 'Dashboard');
    await statusIs(page, suite.app, 'ONLINE');
  });
});
