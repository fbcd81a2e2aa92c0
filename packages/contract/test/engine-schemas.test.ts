import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  creatorListSchema,
  customItemsFileSchema,
  defaultWorldMeta,
  newbieKitSchema,
  newCustomItem,
  playerPutSchema,
  requestIssueMessage,
  serverConfigSchema,
  worldPutSchema,
  worldShapeMessages,
} from '../src/index.ts';

const world = (extra: Record<string, unknown> = {}) => ({
  ...defaultWorldMeta(1, 2),
  owner: 'Alice',
  blocks: [
    { fg: 0, bg: 0, o: 0, l: 0, fl: 0, if_c: 0 },
    { fg: 2, bg: 14, o: 1, l: 0, fl: 0, if_c: 0, label: 'raw text' },
  ],
  ...extra,
});

const firstMessage = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.error?.issues[0]?.message;

describe('engine config schemas', () => {
  it('normalises an empty newbie kit to one entry of zeros', () => {
    const zero = { Gemss: 0, Coin: 0, Seasonals_Token: 0, items: [] };
    assert.deepEqual(newbieKitSchema.parse({ ITEMS: [] }), { ITEMS: [zero] });
    assert.deepEqual(newbieKitSchema.parse({}), { ITEMS: [zero] });
  });

  it('refuses a kit quantity that is not a positive integer', () => {
    const r = newbieKitSchema.safeParse({ ITEMS: [{ Gemss: 5, items: [[2, 0]] }] });
    assert.equal(firstMessage(r), 'Please enter a valid quantity.');
  });

  it('gives a new custom item the spec defaults and the next ID', () => {
    const item = newCustomItem([{ ID: 5 }, { ID: 9 }]);
    assert.equal(item.ID, 10);
    assert.equal(item.Name, 'New Item');
    assert.equal(item.Desc, 'A new custom item.');
    assert.equal(item.rarity, 1);
    assert.equal(item.Gems, 0);
    assert.equal(item.property_untradeable, false);
    assert.deepEqual(item.Extra_Drops, []);
  });

  it('refuses duplicate custom item IDs and duplicate creators', () => {
    assert.match(firstMessage(customItemsFileSchema.safeParse({ items: [{ ID: 1 }, { ID: 1 }] })) ?? '', /Duplicate/);
    assert.match(firstMessage(creatorListSchema.safeParse(['Bob', 'bob'])) ?? '', /Duplicate creator/);
  });

  it('defaults the autofarm delay to 1000 and names a non-number', () => {
    assert.equal(serverConfigSchema.parse({}).autofarmDelay, 1000);
    assert.equal(
      firstMessage(serverConfigSchema.safeParse({ autofarmDelay: 'x' })),
      'Autofarm delay must be a valid number.',
    );
  });
});

describe('world and player schemas', () => {
  it('accepts a whole world and keeps a tile label; any other tile property is refused by name', () => {
    const parsed = worldPutSchema.parse(world());
    assert.equal(parsed.blocks[1]?.label, 'raw text');
    const [first, second] = world().blocks;
    const junk = { ...second, junk: 'x'.repeat(300) };
    const result = worldPutSchema.safeParse(world({ blocks: [first, junk] }));
    assert.equal(result.success, false);
    assert.equal(
      requestIssueMessage(result.error as never),
      `blocks.1: ${worldShapeMessages.unknownTileField(['junk'])}`,
    );
    assert.equal(
      worldShapeMessages.unknownTileField(['junk']),
      'Unknown tile property "junk": a tile has fg, bg, o, l, fl, if_c, label only.',
    );
  });

  it('says precisely what is wrong with a world', () => {
    assert.equal(
      firstMessage(worldPutSchema.safeParse(world({ d_weather: 3 }))),
      'd_weather must be 6 (locked) or 0 (open).',
    );
    assert.match(firstMessage(worldPutSchema.safeParse(world({ height: 3 }))) ?? '', /width × height = 3 tiles, got 2/);
    assert.match(firstMessage(worldPutSchema.safeParse(world({ admins: ['Bob', 'BOB'] }))) ?? '', /Duplicate admin/);
    const unknown = worldPutSchema.safeParse(world({ musicbpm: 1 }));
    assert.equal(requestIssueMessage(unknown.error as never), 'Unknown field "musicbpm".');
  });

  it('only lets Role.* and Title.* booleans into a player', () => {
    const player = {
      pass: '',
      email: '',
      home_world: 'start',
      level: 1,
      gems: 0,
      xp: 0,
      wl_bank_amount: 0,
      dl_bank_amount: 0,
      inventory: [[2, 5]],
    };
    const ok = playerPutSchema.parse({ ...player, 'Role.VIP': true });
    assert.equal(ok.home_world, 'START');
    assert.match(
      firstMessage(playerPutSchema.safeParse({ ...player, colour: true })) ?? '',
      /only Role\.\* and Title\.\*/,
    );
    assert.match(
      firstMessage(
        playerPutSchema.safeParse({
          ...player,
          inventory: [
            [2, 1],
            [2, 3],
          ],
        }),
      ) ?? '',
      /Item 2 appears more than once/,
    );
  });
});
