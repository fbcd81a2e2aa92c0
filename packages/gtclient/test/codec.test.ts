// The client's codec against byte layouts written out by hand from docs/game-protocol.md.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deflateSync } from 'node:zlib';
import { decodeIncoming } from '../src/protocol/incoming.ts';
import { inflateItems, protonHash } from '../src/protocol/items.ts';
import { encodeText, parseText, textBody } from '../src/protocol/messages.ts';
import { blankTank, decodeTank, encodeTank } from '../src/protocol/tank.ts';
import { decodeVariants, encodeVariants } from '../src/protocol/variant.ts';
import { decodeInventory } from '../src/protocol/world.ts';

const hex = (s: string) => Buffer.from(s.replace(/\s+/g, ''), 'hex');

test('text and game messages: u32 LE type, key|value lines, one NUL', () => {
  assert.deepEqual(encodeText(3, 'action|quit_to_exit'), hex('03000000 616374696f6e7c717569745f746f5f65786974 00'));
  assert.deepEqual(
    encodeText(2, [
      ['a', 'b'],
      ['n', 5],
    ]),
    hex('02000000 617c62 0a 6e7c35 00'),
  );
  const body = textBody(hex('02000000 6d6574617c787c79 0a 6b7c76 00 ffff'));
  assert.equal(body, 'meta|x|y\nk|v');
  assert.deepEqual(
    [...parseText(body)],
    [
      ['meta', 'x|y'],
      ['k', 'v'],
    ],
  );
});

// Tank type 0 from netId 7 at (32.5, 64) with xSpeed -1 and punch (3, 4), value 18, no extended data.
const TANK_STATE = hex(`
  04000000
  00 01 02 03
  07000000  feffffff  00000000  0000803f  12000000
  00000242  00008042  000080bf  00000000  00000000
  03000000  04000000  00000000`);

test('tank header: the 56 bytes of the table, in order', () => {
  const t = {
    ...blankTank(0),
    objType: 1,
    jump: 2,
    punchRange: 3,
    netId: 7,
    targetNetId: -2,
    delay: 1,
    value: 18,
    x: 32.5,
    y: 64,
    xSpeed: -1,
    punchX: 3,
    punchY: 4,
  };
  assert.deepEqual(encodeTank(t), TANK_STATE);
  assert.deepEqual(decodeTank(TANK_STATE), { ...t, extended: Buffer.alloc(0) });
});

test('tank: extended data sets flag 8 and its length; truncation and overruns are refused', () => {
  const withData = encodeTank({ ...blankTank(16), extended: hex('aabbcc') });
  assert.equal(withData.length, 4 + 56 + 3);
  assert.equal(withData.readUInt32LE(4 + 12), 8);
  assert.equal(withData.readUInt32LE(4 + 52), 3);
  assert.deepEqual(decodeTank(withData)?.extended, hex('aabbcc'));
  assert.equal(decodeTank(withData.subarray(0, 59)), null);
  assert.equal(decodeTank(withData.subarray(0, 62)), null);
  assert.equal(decodeTank(TANK_STATE.subarray(0, 40)), null);
});

// OnSendToServer(17091 as i32, 0 as i32, "1.2.3.4|0|tok" as string, 1.5 as float, 7 as u32)
const VARIANTS = hex(`
  06
  00 02 0e000000 4f6e53656e64546f536572766572
  01 09 c3420000
  02 09 00000000
  03 02 0d000000 312e322e332e347c307c746f6b
  04 01 0000c03f
  05 05 07000000`);

test('variant list: count, then index, type, value per argument', () => {
  assert.deepEqual(decodeVariants(VARIANTS), ['OnSendToServer', 17091, 0, '1.2.3.4|0|tok', 1.5, 7]);
  assert.deepEqual(
    encodeVariants([
      { type: 'string', value: 'OnSendToServer' },
      { type: 'int', value: 17091 },
      { type: 'int', value: 0 },
      { type: 'string', value: '1.2.3.4|0|tok' },
      { type: 'float', value: 1.5 },
      { type: 'uint', value: 7 },
    ]),
    VARIANTS,
  );
  assert.deepEqual(decodeVariants(hex('01 00 03 0000803f 00000040')), [[1, 2]]);
  assert.deepEqual(decodeVariants(hex('01 00 04 0000803f 00000040 00004040')), [[1, 2, 3]]);
  assert.equal(decodeVariants(VARIANTS.subarray(0, 30)), null);
  assert.equal(decodeVariants(hex('01 00 07 00000000')), null);
  assert.equal(decodeVariants(hex('01 00 02 ff000000 41')), null);
});

test('a call arrives as {name, args without the name, netId, delay}', () => {
  const tank = encodeTank({ ...blankTank(1), netId: 5, delay: 250, extended: VARIANTS });
  const e = decodeIncoming(tank);
  assert.equal(e?.kind, 'call');
  if (e?.kind !== 'call') return;
  assert.deepEqual(e.call, { name: 'OnSendToServer', args: [17091, 0, '1.2.3.4|0|tok', 1.5, 7], netId: 5, delay: 250 });
  assert.deepEqual(decodeIncoming(hex('01000000 00000000')), { kind: 'hello' });
  assert.equal(decodeIncoming(hex('09000000')), null);
  assert.equal(decodeIncoming(hex('0400')), null);
});

test('inventory: version, backpack size, count, then id, amount, flags', () => {
  const inv = hex('01 10000000 0200 1200 01 00 0200 c8 00');
  assert.deepEqual(decodeInventory(inv), {
    version: 1,
    backpackSize: 16,
    items: [
      { id: 18, amount: 1, flags: 0 },
      { id: 2, amount: 200, flags: 0 },
    ],
  });
  assert.equal(decodeInventory(inv.subarray(0, 10)), null);
});

test('items.dat: the Proton hash and the zlib body of type 16', () => {
  assert.equal(protonHash(Buffer.alloc(0)), 0x55555555);
  // (0x55555555 >>> 27) + (0x55555555 << 5) + 1 = 0x0A + 0xAAAAAAA0 + 1
  assert.equal(protonHash(Buffer.from([1])), 0xaaaaaaab);
  const items = Buffer.from('items.dat bytes '.repeat(100));
  assert.deepEqual(inflateItems(deflateSync(items)), items);
  assert.equal(inflateItems(Buffer.from('not zlib')), null);
});
