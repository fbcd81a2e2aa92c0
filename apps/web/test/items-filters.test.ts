import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { itemsQuerySchema } from '@canopy/contract';
import {
  clothingTypeOptions,
  describeItemKind,
  emptyItemFilters,
  itemKindOptions,
  itemPageCount,
  itemsPath,
  rarityOptions,
  readServerIp,
  resultSummary,
} from '../src/features/items/item-filters.ts';

describe('item filters', () => {
  test('offer the values and labels of spec section 9', () => {
    assert.deepEqual(
      rarityOptions.map((o) => o.value),
      Array.from({ length: 21 }, (_, i) => i),
    );
    assert.equal(rarityOptions[0]?.label, 'Any');
    assert.deepEqual(
      clothingTypeOptions.map((o) => `${o.value} ${o.label}`),
      ['-1 Any', '0 Hat', '1 Shirt', '2 Pants', '3 Shoes', '4 Face', '5 Hand', '6 Back', '7 Hair', '8 Neck'],
    );
    assert.deepEqual(
      itemKindOptions.map((o) => `${o.value} ${o.label}`),
      [
        '-1 Any',
        '0 Fist',
        '1 Wrench',
        '2 Consumable',
        '3 Seed',
        '4 Solid Block',
        '5 Background',
        '6 Foreground',
        '7 Clothing',
        '8 Lock',
      ],
    );
  });

  test('send only the parameters that narrow the search, and the api reads them back', () => {
    assert.equal(itemsPath(emptyItemFilters, 1), '/items');
    const path = itemsPath({ name: '  magic hat ', rarity: 5, clothingType: 0, itemKind: 7 }, 3);
    assert.equal(path, '/items?name=magic+hat&rarity=5&clothingType=0&itemKind=7&page=3');
    const query = Object.fromEntries(new URL(path, 'http://x').searchParams);
    assert.deepEqual(itemsQuerySchema.parse(query), {
      name: 'magic hat',
      rarity: 5,
      clothingType: 0,
      itemKind: 7,
      page: 3,
    });
    assert.equal(itemsPath({ ...emptyItemFilters, name: 'a&b=c' }, 1), '/items?name=a%26b%3Dc');
  });

  test('count pages and summarise results', () => {
    assert.equal(itemPageCount(0), 1);
    assert.equal(itemPageCount(24, 24), 1);
    assert.equal(itemPageCount(25, 24), 2);
    assert.equal(resultSummary(1, 1, 24), '1 item');
    assert.equal(resultSummary(0, 1, 24), '0 items');
    assert.equal(resultSummary(336, 2, 24), 'Showing 25–48 of 336 items');
    assert.equal(resultSummary(30, 2, 24), 'Showing 25–30 of 30 items');
  });

  test('describe an item kind and clothing type', () => {
    assert.equal(describeItemKind(4, -1), 'Solid Block');
    assert.equal(describeItemKind(7, 6), 'Clothing · Back');
  });

  test('read the IP of GET /ip, or the spec error for any other shape', () => {
    assert.deepEqual(readServerIp({ SERVER: { IP: '203.0.113.7' } }), { ip: '203.0.113.7' });
    for (const bad of [null, {}, { SERVER: {} }, { SERVER: { IP: '' } }, { SERVER: { IP: 7 } }, { IP: '1.2.3.4' }])
      assert.deepEqual(readServerIp(bad), { error: 'Invalid IP data format.' }, JSON.stringify(bad));
  });
});
