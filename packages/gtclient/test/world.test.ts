// World data (tank 4) against hand-written byte vectors in the real layout (domain notes "Packets", reference facts
// §2): header, tile count, 5 zero bytes, tiles with their extra data, 12 zero bytes, dropped objects, weather.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeWorld } from '../src/protocol/world.ts';

const hex = (s: string) => Buffer.from(s.replace(/\s+/g, ''), 'hex');

// "AB", 3 x 1: the main door (GrowServer's form: flags 0x0081 PUBLIC | EXTRA; kind 1, "EXIT", one byte), dirt (2)
// on cave background (14), and a sign (kind 2: text, i32 -1); two dropped objects; weather 41 (none).
const HEAD = '1400 40000000 0200 4142 03000000 01000000 03000000 0000000000';
const DOOR = '0600 0000 0000 8100 01 0400 45584954 00';
const DIRT = '0200 0e00 0000 0000';
const SIGN = '1400 0000 0000 0100 02 0200 6869 ffffffff';
const GAP = '000000000000000000000000';
// 2 objects, last uid 7: gems (112) x 5 at (32.5, 64) flags 0 uid 6; dirt (2) x 1 at (0, 0) flags 1 uid 7.
const DROPPED = '02000000 07000000  7000 00000242 00008042 05 00 06000000  0200 00000000 00000000 01 01 07000000';
const WEATHER = '2900 0000 2900 000000000000';
const WORLD = hex(HEAD + DOOR + DIRT + SIGN + GAP + DROPPED + WEATHER);

test('the real layout: gaps, the door label, a sign, dropped objects, the weather trailer', () => {
  const w = decodeWorld(WORLD);
  assert.deepEqual(
    { version: w.version, flags: w.flags, name: w.name, width: w.width, height: w.height },
    { version: 0x14, flags: 0x40, name: 'AB', width: 3, height: 1 },
  );
  assert.deepEqual(w.tiles, [
    { fg: 6, bg: 0, parent: 0, flags: 0x81, extra: { kind: 'door', label: 'EXIT', flags: 0 } },
    { fg: 2, bg: 14, parent: 0, flags: 0 },
    { fg: 20, bg: 0, parent: 0, flags: 1, extra: { kind: 'sign', label: 'hi', end: -1 } },
  ]);
  assert.deepEqual(w.doors, [{ x: 0, y: 0, label: 'EXIT' }]);
  assert.deepEqual(w.dropped, {
    lastUid: 7,
    objects: [
      { id: 112, x: 32.5, y: 64, amount: 5, flags: 0, uid: 6 },
      { id: 2, x: 0, y: 0, amount: 1, flags: 1, uid: 7 },
    ],
  });
  assert.deepEqual(w.weather, { base: 41, flag: 0, current: 41 });
});

test('the main door carries its extra data even without flag 0x0001 (Gurotopia writes flags 0)', () => {
  const w = decodeWorld(
    hex(
      `1400 00000000 0100 41 01000000 01000000 01000000 0000000000 0600 0000 0000 0000 01 0400 45584954 00 ${GAP} 00000000 00000000 ${WEATHER}`,
    ),
  );
  assert.deepEqual(w.tiles[0]?.extra, { kind: 'door', label: 'EXIT', flags: 0 });
});

test('a locked tile carries the u16 index of its lock before any extra data; a lock its access list', () => {
  // 2 x 1: a world lock (242, kind 3: settings 0, owner 9, one access id 11, 8 bytes), then dirt locked by tile 0.
  const lock = 'f200 0000 0000 0100 03 00 09000000 01000000 0b000000 0000000000000000';
  const locked = '0200 0000 0000 0200 0000';
  const w = decodeWorld(
    hex(
      `1400 00000000 0100 41 02000000 01000000 02000000 0000000000 ${lock} ${locked} ${GAP} 00000000 00000000 ${WEATHER}`,
    ),
  );
  assert.deepEqual(w.tiles, [
    { fg: 242, bg: 0, parent: 0, flags: 1, extra: { kind: 'lock', settings: 0, owner: 9, access: [11] } },
    { fg: 2, bg: 0, parent: 0, flags: 2, lockIndex: 0 },
  ]);
});

test('a world without the two gaps and the trailer (the old layout) is refused, not read shifted', () => {
  // The same three tiles as the old engine wrote them: straight after the count, the u32 dropped tail after them.
  const old = hex(
    '1400 40000000 0200 4142 03000000 01000000 03000000 0600 0000 0000 0000 0200 0e00 0000 0000 0200 0e00 0000 0000 00000000 00000000',
  );
  assert.throws(() => decodeWorld(old), /world data: /);
  // Without the gap after the tiles only.
  assert.throws(() => decodeWorld(hex(HEAD + DOOR + DIRT + SIGN + DROPPED + WEATHER)), /world data: /);
  // Without the weather trailer.
  assert.throws(
    () => decodeWorld(hex(HEAD + DOOR + DIRT + SIGN + GAP + DROPPED)),
    /world data: base weather needs 2 bytes/,
  );
  // Non-zero bytes where the gap after the count is.
  assert.throws(
    () => decodeWorld(hex(HEAD.replace(/0000000000$/, '0000010000') + DOOR + DIRT + SIGN + GAP + DROPPED + WEATHER)),
    /gap after the tile count/,
  );
});

test('bytes left over, a count that is not width x height, or an unknown extra kind are errors naming the cause', () => {
  assert.throws(() => decodeWorld(Buffer.concat([WORLD, hex('00')])), /1 bytes left over/);
  assert.throws(
    () => decodeWorld(hex('1400 00000000 0100 41 02000000 01000000 03000000')),
    /tile count 3 is not width x height/,
  );
  assert.throws(
    () =>
      decodeWorld(
        hex(
          `1400 00000000 0100 41 01000000 01000000 01000000 0000000000 0200 0000 0000 0100 2a 00 ${GAP} 00000000 00000000 ${WEATHER}`,
        ),
      ),
    /tile 0 \(fg 2\) carries extra data of kind 42, which this client cannot read/,
  );
  assert.throws(() => decodeWorld(WORLD.subarray(0, 40)), /world data: .* needs/);
});
