import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  customItemsFileSchema,
  defaultWorldMeta,
  itemConfigSchema,
  MAX_CUSTOM_ITEMS,
  MAX_EXTRA_DROPS,
  MAX_INVENTORY_ITEMS,
  newbieKitSchema,
  requestIssueMessage,
  safeParseFirst,
  WORLD_MAX_TILES,
  worldPutSchema,
  worldShapeMessages,
} from '../src/index.ts';

// Issue 21: what a hostile but small body can make validation do is bounded by its lengths, and a refused
// body is explained by its first problem only.

/** A custom item whose every field has the wrong type. */
const wrongItem = (i: number) => ({
  ID: `id${i}`,
  Name: i,
  Desc: 1,
  rarity: 'rare',
  Gems: 'x',
  Extra_Drops: Array.from({ length: MAX_EXTRA_DROPS }, () => ['a', 'b']),
  property_gacha: 'x',
  texture: { file: 1, texture_x: 'x' },
});
const hostileItems = { items: Array.from({ length: MAX_CUSTOM_ITEMS }, (_, i) => wrongItem(i)) };

const world = (size: { width: number; height: number }, blocks: unknown[]) => ({
  ...defaultWorldMeta(size.width, size.height),
  owner: 'Alice',
  ...size,
  blocks,
});
const tile = { fg: 0, bg: 0, o: 0, l: 0, fl: 0, if_c: 0 };

describe('validation cost bounds', () => {
  it('safeParseFirst stops at the first problem of 1,000 wrong custom items', () => {
    // zod's full parse collects tens of thousands of issues here; the api answers with one.
    assert.ok((customItemsFileSchema.safeParse(hostileItems).error?.issues.length ?? 0) > 1000);
    const first = safeParseFirst(customItemsFileSchema, hostileItems);
    assert.equal(first.error?.issues.length, 1);
    assert.deepEqual(first.error?.issues[0]?.path, ['items', 0, 'ID']);
  });

  it('itemConfigSchema answers the first wrong item in the page’s words, from one issue', () => {
    const result = safeParseFirst(itemConfigSchema, hostileItems);
    assert.equal(result.error?.issues.length, 1);
    assert.equal(requestIssueMessage(result.error as never), 'Item 1: Item id must be a whole number.');
  });

  it('refuses a tile list longer than the largest world by its length, before any tile', () => {
    const result = worldPutSchema.safeParse({ blocks: new Array(1_700_000).fill(0) });
    assert.deepEqual(result.error?.issues, [
      { code: 'custom', path: ['blocks'], message: worldShapeMessages.tooManyBlocks(1_700_000) },
    ]);
    assert.match(worldShapeMessages.tooManyBlocks(1_700_000), new RegExp(`at most ${WORLD_MAX_TILES} tiles`));
  });

  it('refuses a tile list that is not width × height long before checking its tiles', () => {
    const result = worldPutSchema.safeParse(world({ width: 10, height: 10 }, new Array(WORLD_MAX_TILES).fill(0)));
    assert.deepEqual(result.error?.issues, [
      { code: 'custom', path: ['blocks'], message: 'blocks must hold width × height = 100 tiles, got 40000.' },
    ]);
  });

  it('explains only the first wrong tile of a full world, even without safeParseFirst', () => {
    const result = worldPutSchema.safeParse(world({ width: 200, height: 200 }, new Array(WORLD_MAX_TILES).fill(0)));
    assert.equal(result.error?.issues.length, 1);
    assert.deepEqual(result.error?.issues[0]?.path, ['blocks', 0]);
    assert.equal(worldPutSchema.safeParse(world({ width: 2, height: 1 }, [tile, tile])).success, true);
  });

  it('bounds a newbie kit entry’s items to an inventory', () => {
    const kit = (n: number) => ({ ITEMS: [{ items: Array.from({ length: n }, (_, i) => [i, 1]) }] });
    assert.equal(newbieKitSchema.safeParse(kit(MAX_INVENTORY_ITEMS)).success, true);
    assert.match(
      safeParseFirst(newbieKitSchema, kit(MAX_INVENTORY_ITEMS + 1)).error?.issues[0]?.message ?? '',
      /at most 500 items/,
    );
  });
});
