import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { buildAssets } from '../scripts/build-assets.ts';
import {
  ACTION_TYPE,
  cutSprite,
  decodeItemsDat,
  encodeItemsDat,
  type Item,
  protonHash,
  toItemSummary,
} from '../src/index.ts';
import { decodeRttexFile } from '../src/node.ts';

const assets = join(import.meta.dirname, '..', 'assets');
const file = new Uint8Array(readFileSync(join(assets, 'items.dat')));
const dat = decodeItemsDat(file);
const byId = (id: number) => dat.items[id] as Item;

test('the committed assets equal a fresh build (run scripts/generate-assets.ts after changing it)', () => {
  const built = buildAssets();
  assert.deepEqual([...built.keys()].sort(), ['cache/tiles_page1.rttex', 'cache/tiles_page2.rttex', 'items.dat']);
  for (const [path, bytes] of built) assert.deepEqual(new Uint8Array(readFileSync(join(assets, path))), bytes, path);
});

test('default items.dat: v26, 336 items with ids 0..335, and it re-encodes byte for byte', () => {
  assert.equal(dat.version, 26);
  assert.equal(dat.items.length, 336);
  assert.deepEqual(
    dat.items.map((i) => i.id),
    dat.items.map((_, index) => index),
  );
  assert.deepEqual(encodeItemsDat(dat), file);
});

test('default items.dat: well-known ids and every block followed by its seed', () => {
  const names = [0, 2, 10, 14, 18, 20, 32, 242].map((id) => byId(id).name);
  assert.deepEqual(names, ['Blank', 'Dirt', 'Rock', 'Cave Background', 'Fist', 'Wooden Sign', 'Wrench', 'World Lock']);
  for (let id = 0; id < dat.items.length; id += 2) {
    const seed = byId(id + 1);
    assert.equal(seed.name, `${byId(id).name} Seed`);
    assert.equal(seed.actionType, ACTION_TYPE.seed);
    assert.equal(seed.rarity, byId(id).rarity);
  }
  assert.deepEqual(toItemSummary(byId(2)), {
    ...{ id: 2, name: 'Dirt', rarity: 1, clothing_type: -1, item_kind: 4 },
    ...{ texture: 'tiles_page1.rttex', texture_x: 2, texture_y: 0 },
  });
  assert.deepEqual(toItemSummary(byId(300)), {
    ...{ id: 300, name: 'Angel Wings', rarity: 19, clothing_type: 6, item_kind: 7 },
    ...{ texture: 'tiles_page2.rttex', texture_x: 12, texture_y: 2 },
  });
  assert.equal(byId(2).breakHits, 4);
  assert.equal(byId(2).info, 'A solid block you can stand on.');
});

test('default items.dat covers every rarity 1..20, clothing type 0..8 and item kind 0..8', () => {
  const summaries = dat.items.map(toItemSummary);
  const set = (values: number[]) => [...new Set(values)].sort((a, b) => a - b);
  const range = (n: number) => Array.from({ length: n }, (_, i) => i);
  assert.deepEqual(set(summaries.map((s) => s.rarity)), [...range(20).map((i) => i + 1), 999]);
  assert.deepEqual(set(summaries.map((s) => s.clothing_type)), [-1, ...range(9)]);
  assert.deepEqual(set(summaries.map((s) => s.item_kind)), range(9));
  assert.deepEqual(
    [0, 1, 2, 3, 4, 5, 6, 7, 8].map((kind) => summaries.filter((s) => s.item_kind === kind).length),
    [1, 1, 16, 168, 44, 19, 29, 54, 4],
  );
});

test("texture sheets decode, match the items' texture hashes, and hold the drawn sprites", () => {
  const page1Bytes = new Uint8Array(readFileSync(join(assets, 'cache/tiles_page1.rttex')));
  const page2Bytes = new Uint8Array(readFileSync(join(assets, 'cache/tiles_page2.rttex')));
  assert.equal(byId(2).textureHash, protonHash(page1Bytes));
  assert.equal(byId(300).textureHash, protonHash(page2Bytes));
  const page1 = decodeRttexFile(page1Bytes);
  const page2 = decodeRttexFile(page2Bytes);
  assert.deepEqual([page1.width, page1.height, page1.paddedWidth, page1.paddedHeight], [512, 512, 512, 512]);
  assert.deepEqual([page2.width, page2.height, page2.paddedWidth, page2.paddedHeight], [512, 160, 512, 256]);

  const dirt = cutSprite(page1, byId(2).textureX, byId(2).textureY);
  // Dirt is 0x8b5a2b with a border at 0.6 brightness: (83, 54, 26).
  assert.deepEqual([...dirt.subarray(0, 4)], [83, 54, 26, 255]);
  assert.deepEqual([...dirt.subarray((31 * 32 + 31) * 4, (31 * 32 + 32) * 4)], [83, 54, 26, 255]);
  assert.ok(
    cutSprite(page1, 0, 0).every((b) => b === 0),
    'Blank is fully transparent',
  );
  // 336 items fill page 2 with exactly 5 rows (ids 256..335).
  assert.throws(() => cutSprite(page2, 0, 5), /lies outside the 512x160 texture/);
  const wings = cutSprite(page2, byId(300).textureX, byId(300).textureY);
  assert.equal(wings[(15 * 32 + 16) * 4 + 3], 255, 'the wings sprite is drawn in its own cell');
  assert.equal(wings[3], 0, 'and leaves its corner transparent');
});
