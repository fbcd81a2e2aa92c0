import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_STACK } from '@canopy/contract';
import {
  addInventoryItem,
  flagKeys,
  flagLabel,
  inventoryRows,
  playerBody,
  removeInventoryEntry,
  searchItems,
  setInventoryCount,
} from '../src/features/players/player-draft.ts';

describe('flagKeys', () => {
  it("lists the contract's roles and titles plus any other flag of the record, roles first", () => {
    const keys = flagKeys({ level: 1, 'Title.Champion': true, 'Role.Builder': false, 'Role.VIP': true, email: '' });
    assert.deepEqual(keys, [
      'Role.Developer',
      'Role.Administrator',
      'Role.Moderator',
      'Role.VIP',
      'Role.Builder',
      'Title.Legend',
      'Title.Doctor',
      'Title.Mentor',
      'Title.Grow4Good',
      'Title.Champion',
    ]);
    assert.equal(flagLabel('Title.Grow4Good'), 'Grow4Good');
  });
});

describe('inventory edits', () => {
  const inventory = [
    [2, 10],
    [18, 1],
  ];

  it('adds a new item at the end, capped at the stack size', () => {
    assert.deepEqual(addInventoryItem(inventory, 4, 5), [...inventory, [4, 5]]);
    assert.deepEqual(addInventoryItem([], 4, 999), [[4, MAX_STACK]]);
  });

  it('adds to the count of an item already held instead of a second row', () => {
    assert.deepEqual(addInventoryItem(inventory, 18, 4), [
      [2, 10],
      [18, 5],
    ]);
    assert.deepEqual(addInventoryItem(inventory, 2, MAX_STACK)[0], [2, MAX_STACK]);
  });

  it('changes and removes rows by index without touching the input', () => {
    assert.deepEqual(setInventoryCount(inventory, 1, 7), [
      [2, 10],
      [18, 7],
    ]);
    assert.deepEqual(removeInventoryEntry(inventory, 0), [[18, 1]]);
    assert.deepEqual(inventory[1], [18, 1]);
  });

  it('shows only well-formed pairs, keeping their index in the draft', () => {
    assert.deepEqual(inventoryRows({ inventory: [[2, 1], 'junk', [4, 2]] }), [
      { row: [2, 1], index: 0 },
      { row: [4, 2], index: 2 },
    ]);
    assert.deepEqual(inventoryRows({}), []);
  });
});

describe('searchItems', () => {
  const items = [
    { item_id: 2, name: 'Dirt' },
    { item_id: 4, name: 'Lava' },
    { item_id: 12, name: 'Dirt Seed' },
  ];

  it('matches names case-insensitively or the exact id, up to the limit', () => {
    assert.deepEqual(
      searchItems(items, 'dIrT').map((i) => i.item_id),
      [2, 12],
    );
    assert.deepEqual(
      searchItems(items, '4').map((i) => i.item_id),
      [4],
    );
    assert.equal(searchItems(items, 'dirt', 1).length, 1);
    assert.deepEqual(searchItems(items, ' '), []);
  });
});

describe('playerBody', () => {
  it('leaves an unchanged ban state out, so a save never undoes a ban made meanwhile', () => {
    assert.deepEqual(playerBody({ level: 2, banned: false }, { banned: false }), { level: 2 });
  });

  it('sends the ban state when the draft changed it', () => {
    assert.deepEqual(playerBody({ level: 2, banned: true }, { banned: false }), { level: 2, banned: true });
  });
});
