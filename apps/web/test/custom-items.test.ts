import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { customItemSchema, customItemsMessages as t } from '@canopy/contract';
import { decodeRttex } from '@canopy/formats';
import { nodeInflate } from '@canopy/formats/node';
import { encode } from 'fast-png';
import {
  addNewItem,
  defaultAdvancedOptions,
  parseIntOrZero,
  searchCustomItems,
  textureCellError,
  textureProperties,
  textureRarity,
} from '../src/features/configuration/custom-items-logic.ts';
import {
  buildRttexBase64,
  decodePngFile,
  isPng,
  TextureImageError,
} from '../src/features/configuration/custom-texture-image.ts';

const item = (ID: number, Name: string) => customItemSchema.parse({ ID, Name });

describe('custom items logic', () => {
  it('adds an item with the spec defaults and the next id over the database and the custom items', () => {
    const added = addNewItem([item(400, 'Mine')], [0, 1, 335]);
    assert.ok(added.ok);
    assert.equal(added.item.ID, 401);
    assert.equal(added.item.Name, 'New Item');
    assert.equal(added.item.Desc, 'A new custom item.');
    assert.equal(added.item.rarity, 1);
    assert.equal(added.item.Gems, 0);
    assert.equal(added.item.property_gacha, false);
    assert.equal((addNewItem([], [0, 10]) as { item: { ID: number } }).item.ID, 11);
  });

  it('allows only one unedited New Item', () => {
    assert.deepEqual(addNewItem([item(5, 'New Item')], []), { ok: false, error: t.oneNewItem });
    assert.equal(t.oneNewItem, 'Please edit the existing "New Item" before adding another.');
  });

  it('parses numbers as integers defaulting to 0', () => {
    assert.equal(parseIntOrZero('42'), 42);
    assert.equal(parseIntOrZero('7.9'), 7);
    assert.equal(parseIntOrZero(''), 0);
    assert.equal(parseIntOrZero('abc'), 0);
  });

  it('searches by name or id and keeps the index into the full list', () => {
    const list = [item(1, 'Red Block'), item(2, 'Blue Block'), item(30, 'Green')];
    assert.deepEqual(
      searchCustomItems(list, 'block').map((m) => m.index),
      [0, 1],
    );
    assert.deepEqual(
      searchCustomItems(list, '30').map((m) => m.item.Name),
      ['Green'],
    );
    assert.equal(searchCustomItems(list, ' ').length, 3);
  });

  it('sends only the filled numeric texture options, with the spec defaults', () => {
    assert.deepEqual(textureProperties(defaultAdvancedOptions()), {
      texture_x: 0,
      texture_y: 0,
      clothing_type: 6,
      item_kind: 4,
      collision_type: 1,
    });
    assert.deepEqual(
      textureProperties({ ...defaultAdvancedOptions(), texture_x: '', break_hits: '3', grow_time: 'x' }),
      {
        texture_y: 0,
        clothing_type: 6,
        item_kind: 4,
        break_hits: 3,
        collision_type: 1,
      },
    );
    assert.deepEqual(textureRarity('999'), { ok: true, rarity: 999 });
    assert.deepEqual(textureRarity(' 1 '), { ok: true, rarity: 1 });
    // Out of range or not a number: the contract's precise text, not the required-fields one (issue 21).
    assert.deepEqual(textureRarity('0'), { ok: false, error: 'Rarity must be between 1 and 999.' });
    assert.deepEqual(textureRarity('1000'), { ok: false, error: 'Rarity must be between 1 and 999.' });
    assert.deepEqual(textureRarity('abc'), { ok: false, error: 'Rarity must be a whole number.' });
    assert.deepEqual(textureRarity('2.5'), { ok: false, error: 'Rarity must be a whole number.' });
    // Empty is a required field left out.
    assert.deepEqual(textureRarity(''), { ok: false, error: t.fillAll });
  });

  it('refuses a texture cell outside the image before anything is sent', () => {
    const sheet = { width: 64, height: 32 };
    assert.equal(textureCellError({ texture_x: '1', texture_y: '0' }, sheet), undefined);
    assert.equal(textureCellError({ texture_x: '', texture_y: '' }, { width: 20, height: 20 }), undefined);
    assert.equal(textureCellError({ texture_x: '2', texture_y: '0' }, sheet), t.cellOutside(2, 0, 64, 32));
    assert.equal(textureCellError({ texture_x: '0', texture_y: '1' }, sheet), t.cellOutside(0, 1, 64, 32));
    assert.equal(
      t.cellOutside(2, 0, 64, 32),
      'Texture X and Y must point at a 32x32 cell of the image: cell (2, 0) lies outside the 64x32 image.',
    );
  });
});

describe('custom texture image', () => {
  const png = (width: number, height: number, channels = 4) =>
    encode({ width, height, channels, data: new Uint8Array(width * height * channels).map((_, i) => i % 251) });

  it('refuses a non-PNG with a .png name by its signature', () => {
    const fake = new TextEncoder().encode('GIF89a this is not a png at all');
    assert.equal(isPng(fake), false);
    assert.throws(
      () => decodePngFile(fake),
      (e: unknown) => e instanceof TextureImageError && e.message === t.onlyPng,
    );
  });

  it('refuses a tiny PNG whose header claims 60000x60000 before decoding it', () => {
    const bytes = png(4, 4);
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    view.setUint32(16, 60000);
    view.setUint32(20, 60000);
    assert.ok(bytes.length < 1024);
    assert.throws(() => decodePngFile(bytes), /60000x60000 pixels; at most 1024x1024/);
  });

  it('refuses a truncated PNG', () => {
    const bytes = png(16, 16);
    assert.throws(() => decodePngFile(bytes.subarray(0, 40)), TextureImageError);
  });

  it('decodes RGB and RGBA PNGs and builds an RTTEX the formats package reads back upright', async () => {
    const rgb = decodePngFile(png(3, 2, 3));
    assert.equal(rgb.rgba.length, 3 * 2 * 4);
    assert.equal(rgb.rgba[3], 255, 'opaque alpha added');
    const image = decodePngFile(png(20, 10));
    const base64 = await buildRttexBase64(image);
    const back = decodeRttex(new Uint8Array(Buffer.from(base64, 'base64')), nodeInflate);
    assert.equal(back.width, 20);
    assert.equal(back.height, 10);
    assert.deepEqual(back.rgba, image.rgba, 'rows come back top-down: stored flipped, read flipped back');
  });
});
