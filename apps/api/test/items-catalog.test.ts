// The in-memory search against a plain filter over the same items, and the custom-item overlay.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ITEMS_PAGE_SIZE, type Item, itemsQuerySchema } from '@canopy/contract';
import { catalogOf, overlay, searchCatalog } from '../src/items/item-catalog.ts';

const WORDS = ['Magic Hat', 'dirt', 'Dirt Seed', 'Lava\nRock', 'Ancient Wings', 'Ice', 'hat stand', 'Block 12'];
const items: Item[] = Array.from({ length: 500 }, (_, i) => ({
  id: i * 2 + (i % 3 === 0 ? 1 : 0),
  name: `${WORDS[i % WORDS.length]} ${i}`,
  rarity: (i % 20) + 1,
  clothing_type: i % 4 === 0 ? i % 9 : -1,
  item_kind: i % 9,
  texture: 'tiles_page1.rttex',
  texture_x: i % 8,
  texture_y: 0,
}));

function naive(q: ReturnType<typeof itemsQuerySchema.parse>) {
  const needle = q.name.toLowerCase();
  const all = [...items]
    .sort((a, b) => a.id - b.id)
    .filter(
      (it) =>
        (q.rarity === 0 || it.rarity === q.rarity) &&
        (q.itemKind === -1 || it.item_kind === q.itemKind) &&
        (q.clothingType === -1 || it.clothing_type === q.clothingType) &&
        (!needle ||
          it.name.toLowerCase().replaceAll('\n', ' ').includes(needle) ||
          (/^\d+$/.test(needle) && it.id === Number(needle))),
    );
  const from = (q.page - 1) * ITEMS_PAGE_SIZE;
  return { items: all.slice(from, from + ITEMS_PAGE_SIZE), total: all.length };
}

test('search equals a plain filter for names, ids, filters and pages', () => {
  const catalog = catalogOf([...items].reverse());
  const names = [
    '',
    'hat',
    'HAT',
    'dirt',
    'dirt seed',
    't 1',
    '1',
    '12',
    '998',
    'lava rock',
    'lava\nrock',
    'zzz',
    ' 4',
  ];
  for (const name of names)
    for (const rarity of ['', '3'])
      for (const itemKind of ['', '0', '7'])
        for (const clothingType of ['', '4'])
          for (const page of ['1', '2', '9']) {
            const q = itemsQuerySchema.parse({ name, rarity, itemKind, clothingType, page });
            assert.deepEqual(searchCatalog(catalog, q), naive(q), JSON.stringify(q));
          }
});

test('custom items override names and rarity inside the base and add new items after it', () => {
  const base = catalogOf(items.slice(0, 3));
  const merged = overlay(base, [
    { ID: 1, Name: 'Renamed', rarity: 9 },
    {
      ID: 900,
      Name: 'Cape',
      rarity: 999,
      texture: { file: 'custom_0123456789abcdef.rttex', texture_x: 1, texture_y: 2, item_kind: 7, clothing_type: 6 },
    },
    { ID: 901, Name: 'Plain', rarity: 5 },
  ] as never);
  assert.deepEqual(
    merged.items.map((i) => [i.id, i.name, i.rarity, i.item_kind, i.clothing_type, i.texture]),
    [
      [1, 'Renamed', 9, 0, 0, 'tiles_page1.rttex'],
      [2, 'dirt 1', 2, 1, -1, 'tiles_page1.rttex'],
      [4, 'Dirt Seed 2', 3, 2, -1, 'tiles_page1.rttex'],
      [900, 'Cape', 999, 7, 6, 'custom_0123456789abcdef.rttex'],
      [901, 'Plain', 5, 4, -1, ''],
    ],
  );
  assert.equal(overlay(base, []), base, 'no custom items: the base itself');
  assert.equal(searchCatalog(merged, itemsQuerySchema.parse({ name: 'renamed' })).total, 1);
});
