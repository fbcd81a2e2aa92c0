// The engine's codec against byte layouts written out by hand from docs/game-protocol.md.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeClientMessage } from '../src/net/protocol/decode.ts';
import { encodeInventory } from '../src/net/protocol/inventory.ts';
import { decodeTank, encodeTank, tankHeader } from '../src/net/protocol/tank.ts';
import { decodeTextBody, encodeHello, encodeText } from '../src/net/protocol/text.ts';
import { decodeVariantList, encodeCall, encodeVariantList } from '../src/net/protocol/variant.ts';
import { encodeWorldData } from '../src/net/protocol/world-data.ts';

const hex = (s: string) => Buffer.from(s.replace(/\s+/g, ''), 'hex');

describe('game protocol codec', () => {
  it('writes hello and text messages', () => {
    assert.deepEqual(encodeHello(), hex('01000000 00000000'));
    // u32 3, "action|quit" + NUL
    assert.deepEqual(encodeText(3, ['action|quit']), hex('03000000 616374696f6e7c71756974 00'));
  });

  it('reads text up to the first NUL, splitting each line at its first bar', () => {
    const body = Buffer.from('requestedName|a|b\nmeta|x\r\nflag\n\0ignored|y');
    assert.deepEqual(
      [...decodeTextBody(body)],
      [
        ['requestedName', 'a|b'],
        ['meta', 'x'],
        ['flag', ''],
      ],
    );
    assert.equal(decodeTextBody(Buffer.from(`k|${'v'.repeat(10_000)}`)).get('k')?.length, 512, 'values are capped');
  });

  it('writes the 56-byte tank header field by field', () => {
    const bytes = encodeTank(
      tankHeader({ tankType: 3, netId: 7, value: 18, x: 32, y: 64, punchX: 5, punchY: -1 }),
      Buffer.from([0xaa, 0xbb]),
    );
    const expected = hex(`
      04000000
      03 00 00 00  07000000  00000000  08000000  00000000  12000000
      00000042  00008042  00000000  00000000  00000000  05000000  ffffffff  02000000
      aabb`);
    assert.deepEqual(bytes, expected);
    const read = decodeTank(bytes.subarray(4));
    assert.equal(read?.header.value, 18);
    assert.equal(read?.header.y, 64);
    assert.deepEqual(read?.extended, Buffer.from([0xaa, 0xbb]));
  });

  it('refuses short tanks, an extended length past the end, and non-finite floats', () => {
    const good = encodeTank(tankHeader({ tankType: 0 })).subarray(4);
    assert.ok(decodeTank(good));
    assert.equal(decodeTank(good.subarray(0, 55)), undefined);
    const long = Buffer.from(good);
    long.writeUInt32LE(1, 52);
    assert.equal(decodeTank(long), undefined);
    const nan = Buffer.from(good);
    nan.writeFloatLE(Number.NaN, 24);
    assert.equal(decodeTank(nan), undefined);
  });

  it('writes variant lists: count, then index, type and value per argument', () => {
    const list = encodeVariantList([
      'OnX',
      -2,
      { type: 'u32', value: 0xfffffffe },
      { type: 'float', value: 1 },
      { type: 'vec2', value: [1, 2] },
    ]);
    assert.deepEqual(
      list,
      hex(`05
        00 02 03000000 4f6e58
        01 09 feffffff
        02 05 feffffff
        03 01 0000803f
        04 03 0000803f 00000040`),
    );
    assert.deepEqual(decodeVariantList(list)?.[4], { type: 'vec2', value: [1, 2] });
    assert.equal(decodeVariantList(list.subarray(0, list.length - 1)), undefined, 'truncated');
    assert.equal(decodeVariantList(Buffer.concat([list, hex('00')])), undefined, 'bytes left over');
    assert.equal(decodeVariantList(hex('01 00 07 00000000')), undefined, 'unknown type');
    assert.equal(decodeVariantList(hex('01 00 02 ffffffff')), undefined, 'string past the end');
  });

  it('wraps a call in a tank of type 1 with netId -1 and the list as extended data', () => {
    const call = encodeCall('OnConsoleMessage', ['hi']);
    assert.equal(call.readUInt32LE(0), 4);
    assert.equal(call[4], 1);
    assert.equal(call.readInt32LE(8), -1);
    assert.equal(call.readUInt32LE(16) & 8, 8, 'has extended data');
    assert.deepEqual(call.subarray(60), hex('02 00 02 10000000 4f6e436f6e736f6c654d657373616765 01 02 02000000 6869'));
  });

  it('writes world data in the layout the real client reads (domain notes, "World data")', () => {
    // A door (6) with its EXIT label, an item whose action type is a sign (20), plain dirt (2).
    const actions = new Map([
      [20, 10],
      [2, 17],
    ]);
    const bytes = encodeWorldData(
      { name: 'AB', width: 3, height: 1, fg: Uint16Array.of(6, 20, 2), bg: Uint16Array.of(14, 0, 0) },
      (id) => actions.get(id),
    );
    assert.deepEqual(
      bytes,
      hex(`1400 40000000 0200 4142 03000000 01000000 03000000
        0000000000
        0600 0e00 0000 8100  01 0400 45584954 00
        1400 0000 0000 0100  02 0000 ffffffff
        0200 0000 0000 0000
        000000000000000000000000
        00000000 00000000
        2900 0000 00000000 00000000`),
    );
  });

  it('writes the inventory, leaving out empty stacks', () => {
    assert.deepEqual(
      encodeInventory([
        [2, 9],
        [18, 1],
        [4, 0],
      ]),
      hex('01 64000000 0200 0200 09 00 1200 01 00'),
    );
  });

  it('reads client messages by type and refuses the rest', () => {
    assert.equal(decodeClientMessage(hex('020000006b7c7600'))?.kind, 'text');
    assert.equal(decodeClientMessage(hex('030000006b7c7600'))?.kind, 'game');
    assert.equal(decodeClientMessage(encodeTank(tankHeader({})))?.kind, 'tank');
    assert.equal(decodeClientMessage(hex('040000')), undefined, 'shorter than a type');
    assert.equal(decodeClientMessage(hex('0400000000')), undefined, 'a tank without its header');
    assert.equal(decodeClientMessage(hex('0900000000')), undefined, 'an unknown type');
    assert.equal(decodeClientMessage(Buffer.alloc(9000, 2)), undefined, 'oversized');
  });
});
