import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  applyBulkEdit,
  coerceBlockValue,
  hasBit,
  hexToRgb,
  normaliseAdmins,
  rgbToHex,
  toggleBit,
  worldBody,
} from '../src/features/worlds/world-draft.ts';
import { filterWorlds, withWorldLocked } from '../src/features/worlds/world-list.ts';

describe('normaliseAdmins', () => {
  it('trims, drops blanks and removes case-insensitive duplicates keeping the first spelling', () => {
    assert.deepEqual(normaliseAdmins([' Alice ', 'bob', '', '   ', 'ALICE', 'Bob', 'carol', 3]), [
      'Alice',
      'bob',
      'carol',
    ]);
  });

  it('is what worldBody saves', () => {
    assert.deepEqual(worldBody({ owner: 'x', admins: ['a1b', ' a1b'] }), { owner: 'x', admins: ['a1b'] });
    assert.deepEqual(worldBody({ owner: 'x' }).admins, []);
  });
});

describe('coerceBlockValue (bulk block edit)', () => {
  it('turns o and l into 1 or 0', () => {
    for (const raw of ['1', 'true', 'TRUE', ' yes ', 'on', '5'])
      for (const p of ['o', 'l']) assert.equal(coerceBlockValue(p, raw), 1, `${p}=${raw}`);
    for (const raw of ['0', 'false', 'no', '', 'abc'])
      for (const p of ['o', 'l']) assert.equal(coerceBlockValue(p, raw), 0, `${p}=${raw}`);
  });

  it('turns numeric text into numbers for other properties and keeps the rest as raw text', () => {
    assert.equal(coerceBlockValue('fl', '64'), 64);
    assert.equal(coerceBlockValue('if_c', ' 3 '), 3);
    assert.equal(coerceBlockValue('x', '-1.5'), -1.5);
    assert.equal(coerceBlockValue('label', 'hello world'), 'hello world');
    assert.equal(coerceBlockValue('label', ''), '');
    assert.equal(coerceBlockValue('label', 'Infinity'), 'Infinity');
  });
});

describe('applyBulkEdit', () => {
  it('sets the property on every block and leaves the input untouched', () => {
    const blocks = [
      { fg: 2, l: 0 },
      { fg: 4, l: 1 },
    ];
    assert.deepEqual(applyBulkEdit(blocks, 'l', 1), [
      { fg: 2, l: 1 },
      { fg: 4, l: 1 },
    ]);
    assert.deepEqual(applyBulkEdit(blocks, 'note', 'x')[0], { fg: 2, l: 0, note: 'x' });
    assert.equal(blocks[0]?.l, 0);
  });

  it('keeps entries that are not block objects as they are', () => {
    assert.deepEqual(applyBulkEdit([null, 3, [1]], 'o', 1), [null, 3, [1]]);
  });
});

describe('appearance helpers', () => {
  it('converts colours both ways, clamping the preview', () => {
    assert.equal(rgbToHex(255, 128, 64), '#ff8040');
    assert.equal(rgbToHex(300, -5, Number.NaN), '#ff0000');
    assert.deepEqual(hexToRgb('#FF8040'), { r: 255, g: 128, b: 64 });
    assert.equal(hexToRgb('red'), null);
  });

  it('flips and reads the bits of w_s as an unsigned mask', () => {
    assert.equal(toggleBit(0, 3), 8);
    assert.equal(toggleBit(8, 3), 0);
    assert.equal(toggleBit(Number.NaN, 0), 1);
    assert.equal(toggleBit(0, 31), 2 ** 31);
    assert.equal(hasBit(10, 1), true);
    assert.equal(hasBit(10, 0), false);
  });
});

describe('worlds table', () => {
  const rows = [
    { name: 'START', owner: '', players: 0, locked: false, id: 1 },
    { name: 'BUYDIRT', owner: 'Grower1', players: 2, locked: true, id: 2 },
    { name: 'PARK', owner: 'alice', players: 0, locked: false, id: 3 },
  ];

  it('searches name and owner case-insensitively', () => {
    assert.deepEqual(
      filterWorlds(rows, 'dirt').map((w) => w.name),
      ['BUYDIRT'],
    );
    assert.deepEqual(
      filterWorlds(rows, 'ALICE').map((w) => w.name),
      ['PARK'],
    );
    assert.equal(filterWorlds(rows, '  ').length, 3);
    assert.equal(filterWorlds(rows, 'zzz').length, 0);
  });

  it('sets one world locked for the optimistic toggle', () => {
    const next = withWorldLocked(rows, 'START', true);
    assert.deepEqual(
      next.map((w) => w.locked),
      [true, true, false],
    );
    assert.equal(rows[0]?.locked, false);
  });
});
