import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { itemMessages } from '@canopy/contract';
import { cutSprite, decodeRttexFile, encodeRtpack } from '@canopy/formats/node';
import { createSheetCache } from '../src/features/items/sprite-sheets.ts';

const sheetBytes = new Uint8Array(
  readFileSync(new URL(import.meta.resolve('@canopy/formats/assets/cache/tiles_page1.rttex'))),
);

test('a sheet is fetched once per name, decoded in the browser way, and cut into 32x32 sprites', async () => {
  const fetched: string[] = [];
  const cache = createSheetCache(async (name) => {
    fetched.push(name);
    return sheetBytes;
  });
  const item = { texture: 'tiles_page1.rttex', texture_x: 1, texture_y: 0 };
  const [a, b] = await Promise.all([cache.sprite(item), cache.sprite({ ...item, texture_x: 2 })]);
  assert.deepEqual(fetched, ['tiles_page1.rttex'], 'one fetch for both sprites of the sheet');
  assert.equal(a.length, 32 * 32 * 4);
  const expected = cutSprite(decodeRttexFile(sheetBytes), 1, 0);
  assert.deepEqual(a, expected);
  assert.notDeepEqual(a, b);
  assert.ok(
    a.some((v, i) => i % 4 === 3 && v > 0),
    'the bundled sprite has visible pixels',
  );
});

test('a failed fetch is not cached, and an item without a texture says so', async () => {
  let calls = 0;
  const cache = createSheetCache(async () => {
    calls++;
    if (calls === 1) throw new Error('Texture not found.');
    return encodeRtpack({ width: 32, height: 32, rgba: new Uint8Array(32 * 32 * 4).fill(255) });
  });
  const item = { texture: 'x.rttex', texture_x: 0, texture_y: 0 };
  await assert.rejects(cache.sprite(item), /Texture not found\./);
  assert.equal((await cache.sprite(item))[3], 255);
  assert.equal(calls, 2);
  await assert.rejects(cache.sprite({ ...item, texture: '' }), /Texture not found\./);
  // A cell outside the sheet, or a sheet that does not decode, is the page's text, not the decoder's.
  await assert.rejects(cache.sprite({ ...item, texture_x: 5 }), { message: itemMessages.textureFailed });
  const broken = createSheetCache(async () => new Uint8Array([1, 2, 3]));
  await assert.rejects(broken.sprite(item), { message: itemMessages.textureFailed });
});
