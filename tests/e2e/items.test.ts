import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { itemMessages } from '@canopy/contract';
import type { Page } from 'playwright-core';
import { open, registeredPage } from './support/pages.ts';
import { useApp } from './support/suite.ts';

const SHOTS = process.env.CANOPY_SCREENSHOTS; // a folder: the page is also saved there, desktop and phone

describe('Item Database', () => {
  const suite = useApp({ CANOPY_PUBLIC_IP: 'play.example.test' });

  const tileNames = (page: Page) => page.getByTestId('item-tile').locator('span.truncate').allTextContents();

  /** Opens the Item Database from the sidebar and waits for its first page. */
  async function openItems(page: Page) {
    await open(page, 'Item Database');
    await page.getByRole('heading', { name: 'Item Database' }).waitFor();
  }

  it('searches, filters, pages and previews an item with its sprite drawn', async () => {
    const page = await registeredPage(suite.browser, suite.app, 'itemfan', 'ItemFan1', {
      viewport: { width: 1280, height: 900 },
    });
    await openItems(page);
    await page.getByTestId('server-ip').getByText('play.example.test').waitFor();
    await page.getByTestId('items-count').getByText('Showing 1–24 of 336 items').waitFor();
    assert.equal(await page.getByTestId('item-tile').count(), 24);

    await page.getByRole('button', { name: 'Page 2', exact: true }).click();
    await page.getByTestId('items-count').getByText('Showing 25–48 of 336 items').waitFor();

    // The search waits for typing to stop, then narrows the list; the page goes back to 1. Meanwhile page 2
    // stays (it used to jump to page 1 of the unfiltered list at the keystroke): every count shown is recorded.
    await page.evaluate(() => {
      const count = document.querySelector('[data-testid="items-count"]') as HTMLElement;
      const seen: string[] = [];
      (window as unknown as { seenCounts: string[] }).seenCounts = seen;
      new MutationObserver(() => seen.push(count.textContent ?? '')).observe(count, {
        subtree: true,
        childList: true,
        characterData: true,
      });
    });
    await page.getByTestId('items-search').fill('dirt');
    await page
      .getByTestId('items-count')
      .getByText(/^\d items?$/)
      .waitFor();
    const names = await tileNames(page);
    assert.ok(names.length > 0 && names.every((n) => n.toLowerCase().includes('dirt')), names.join(', '));
    const seen = await page.evaluate(() => (window as unknown as { seenCounts: string[] }).seenCounts);
    assert.ok(seen.length > 0, 'the count changed');
    assert.ok(!seen.includes('Showing 1–24 of 336 items'), `counts shown: ${seen.join(' | ')}`);

    await page.getByTestId('items-search').fill('');
    await page.getByTestId('items-item-kind').selectOption({ label: 'Clothing' });
    await page.getByTestId('items-clothing-type').selectOption({ label: 'Hat' });
    await page
      .getByTestId('item-tile')
      .first()
      .getByText(/Clothing/)
      .waitFor();
    await page.waitForFunction(() => {
      const count = document.querySelector('[data-testid="items-count"]')?.textContent ?? '';
      return /^\d+ items?$/.test(count);
    });
    const hats = await tileNames(page);
    assert.ok(hats.length > 0);

    await page.getByTestId('items-rarity').selectOption('20');
    await page.getByTestId('items-item-kind').selectOption({ label: 'Lock' });
    await page.getByTestId('items-clothing-type').selectOption({ label: 'Any' });
    await page.getByTestId('items-item-kind').selectOption({ label: 'Fist' });
    await page.getByTestId('items-empty').getByText(itemMessages.noItems).waitFor();

    await page.getByTestId('items-rarity').selectOption({ label: 'Any' });
    await page.getByTestId('items-item-kind').selectOption({ label: 'Any' });
    await page.getByTestId('items-search').fill('Dirt');
    await page
      .getByTestId('items-count')
      .getByText(/^\d items?$/)
      .waitFor();
    const dirt = page.getByTestId('item-tile').filter({ hasText: /^Dirt#2/ });
    await dirt.click();
    const preview = page.getByTestId('item-preview');
    await preview.waitFor();
    const sprite = preview.locator('[data-testid="item-preview-sprite"][data-state="drawn"]');
    await sprite.waitFor();
    const drawn = await sprite.evaluate((canvas: HTMLCanvasElement) => {
      const data = canvas.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height).data ?? [];
      let visible = 0;
      for (let i = 3; i < data.length; i += 4) if ((data[i] ?? 0) > 0) visible++;
      return { width: canvas.width, height: canvas.height, visible };
    });
    assert.equal(drawn.width, 96);
    assert.equal(drawn.height, 96);
    assert.ok(drawn.visible > 96 * 96 * 0.1, `only ${drawn.visible} visible pixels`);
    await preview.getByTestId('preview-server-ip').getByText('play.example.test').waitFor();
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/items-preview-desktop.png` });
    await page.keyboard.press('Escape');
    await preview.waitFor({ state: 'detached' });
    if (SHOTS) {
      await page.getByTestId('items-search').fill('');
      await page.getByTestId('items-count').getByText('Showing 1–24 of 336 items').waitFor();
      await page.locator('[data-testid="item-tile"] canvas[data-state="drawn"]').first().waitFor();
      await page.screenshot({ path: `${SHOTS}/items-desktop.png`, fullPage: true });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: `${SHOTS}/items-phone.png`, fullPage: false });
    }
  });

  it("shows the api's error in place of the results, and 'Error' for an unreadable IP", async () => {
    const page = await registeredPage(suite.browser, suite.app, 'itemfail', 'ItemFail1');
    // The real api answers everything else; these two answers are replaced to reach the error states.
    await page.route('**/items?name=boom', (route) =>
      route.fulfill({ status: 400, contentType: 'application/json', body: '{"error":"Boom from the api."}' }),
    );
    await page.route('**/ip', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: '{"SERVER":{}}' }),
    );
    await openItems(page);
    await page.getByTestId('server-ip').getByText(itemMessages.ipError, { exact: true }).waitFor();
    await page.getByText(itemMessages.ipInvalid, { exact: true }).first().waitFor();
    await page.getByTestId('items-search').fill('boom');
    await page.getByTestId('items-error').getByText('Boom from the api.').waitFor();
    assert.equal(await page.getByTestId('items-grid').count(), 0);
  });

  it('says when a sprite cannot be drawn, for that item only', async () => {
    const page = await registeredPage(suite.browser, suite.app, 'itemsheet', 'ItemSheet1');
    // The second sheet arrives damaged; Dirt's sheet (tiles_page1) is the real one.
    await page.route('**/cache/tiles_page2.rttex', (route) =>
      route.fulfill({ status: 200, contentType: 'application/octet-stream', body: Buffer.from('not a texture') }),
    );
    await openItems(page);
    const preview = page.getByTestId('item-preview');
    await page.getByTestId('items-search').fill('Angel Wings');
    await page
      .getByTestId('item-tile')
      .filter({ hasText: /^Angel Wings#/ })
      .click();
    await preview.locator('[data-testid="item-preview-sprite"][data-state="failed"]').waitFor();
    await preview.getByRole('alert').getByText(itemMessages.textureFailed, { exact: true }).waitFor();
    await page.keyboard.press('Escape');
    await preview.waitFor({ state: 'detached' });

    // The next item's preview starts clean (the failure used to stay on the modal).
    await page.getByTestId('items-search').fill('Dirt');
    await page
      .getByTestId('item-tile')
      .filter({ hasText: /^Dirt#2/ })
      .click();
    await preview.locator('[data-testid="item-preview-sprite"][data-state="drawn"]').waitFor();
    assert.equal(await preview.getByRole('alert').count(), 0);
  });
});
