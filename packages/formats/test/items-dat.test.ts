import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createItem, decodeItemsDat, encodeItemsDat, type Item } from '../src/index.ts';

/** A byte builder independent of the package's ByteWriter, so the files below are built by hand. */
class Hand {
  readonly out: number[] = [];
  u8(...values: number[]): this {
    this.out.push(...values);
    return this;
  }
  u16(v: number): this {
    return this.u8(v & 0xff, (v >> 8) & 0xff);
  }
  u32(v: number): this {
    return this.u8(v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff);
  }
  str(text: string): this {
    return this.u16(text.length).u8(...[...text].map((c) => c.charCodeAt(0)));
  }
  bytes(): Uint8Array {
    return Uint8Array.from(this.out);
  }
}

// "Dirt" as item 2, XOR "PBG892FXX982ABC*"[(2 + i) % 16] = 'G','8','9','2' (0x47 0x38 0x39 0x32):
// 0x44^0x47 = 0x03, 0x69^0x38 = 0x51, 0x72^0x39 = 0x4b, 0x74^0x32 = 0x46.
const DIRT_OBFUSCATED = [4, 0, 0x03, 0x51, 0x4b, 0x46];
// "Cave" as item 14 wraps around the key: '*'... 'C','*','P','B' -> 0x00 0x4b 0x26 0x27.
const CAVE_OBFUSCATED = [4, 0, 0x00, 0x4b, 0x26, 0x27];
const DIRT_CLEAR = [4, 0, 0x44, 0x69, 0x72, 0x74];
const RESERVED = Array.from({ length: 80 }, (_, i) => (i * 3) & 0xff);

/** One item record for `version`, written field by field in the domain notes' order. */
function handItem(b: Hand, version: number, id: number, name: number[]): void {
  b.u32(id)
    .u8(1, 2, 17, 4)
    .u8(...name)
    .str('tiles_page1.rttex')
    .u32(0xdeadbeef)
    .u8(5)
    .u32(-7);
  b.u8(2, 0, 1, 0, 1, 18).u32(1000).u8(0).u16(1).u8(200).str('').u32(0x01020304).u32(100);
  b.str('Pet').str('pre').str('suf').str('ab').u8(1, 2, 3, 4).u32(0xff8b5a2b).u32(0x80000001);
  b.u32(0)
    .u32(31)
    .u16(-2)
    .u16(0)
    .str('x')
    .str('t2')
    .str('')
    .u8(...RESERVED);
  if (version >= 11) b.str('punch');
  if (version >= 12) b.u32(-5).u8(1, 2, 3, 4, 5, 6, 7, 8, 9);
  if (version >= 13) b.u32(7);
  if (version >= 14) b.u32(8);
  if (version >= 15) b.u8(1).u32(10).u32(11).u32(12).u32(13).u32(14).u32(-15).str('chair.rttex');
  if (version >= 16) b.str('render');
  if (version >= 17) b.u32(17);
  if (version >= 18) b.u32(18);
  if (version >= 19) b.u8(19, 20, 21, 22, 23, 24, 25, 26, 27);
  if (version >= 21) b.u16(-21);
  if (version >= 22) b.str('Info text');
  if (version >= 23) b.u16(3).u16(5);
  if (version >= 24) b.u8(24);
  if (version >= 25) b.str('v25').u32(0xfffffffe);
  if (version >= 26) b.u8(26);
}

function handFile(version: number, names = [version >= 3 ? DIRT_OBFUSCATED : DIRT_CLEAR]): Uint8Array {
  const b = new Hand().u16(version).u32(names.length);
  names.forEach((name, i) => {
    handItem(b, version, i === 0 ? 2 : 14, name);
  });
  return b.bytes();
}

/** What handItem holds, as decoded at v26. */
const DIRT_V26: Item = createItem(2, {
  ...{ editableType: 1, itemCategory: 2, actionType: 17, hitSoundType: 4, name: 'Dirt' },
  ...{ texture: 'tiles_page1.rttex', textureHash: 0xdeadbeef, itemKind: 5, val1: -7, textureX: 2 },
  ...{ spreadType: 1, collisionType: 1, breakHits: 3, dropChance: 1000, rarity: 1, maxAmount: 200 },
  ...{ extraFileHash: 0x01020304, audioVolume: 100, petName: 'Pet', petPrefix: 'pre', petSuffix: 'suf' },
  ...{ petAbility: 'ab', seedBase: 1, seedOverlay: 2, treeBase: 3, treeLeaves: 4, seedColor: 0xff8b5a2b },
  ...{ seedOverlayColor: 0x80000001, growTime: 31, val2: -2, extraOptions: 'x', texture2: 't2' },
  ...{ reserved: Uint8Array.from(RESERVED), punchOptions: 'punch', v12Int: -5 },
  ...{ v12Bytes: Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9]), lightRange: 7, v14Int: 8, canSit: 1 },
  ...{ playerOffsetX: 10, playerOffsetY: 11, chairTextureX: 12, chairTextureY: 13, chairLegOffsetX: 14 },
  ...{ chairLegOffsetY: -15, chairTexture: 'chair.rttex', itemRenderer: 'render', v17Int: 17, v18Int: 18 },
  ...{ v19Bytes: Uint8Array.from([19, 20, 21, 22, 23, 24, 25, 26, 27]), v21Short: -21, info: 'Info text' },
  ...{ recipe: [3, 5], v24Byte: 24, v25String: 'v25', v25Int: 0xfffffffe, v26Byte: 26 },
});

/** The version that introduced each tail field, as listed in the domain notes. */
const SINCE: [number, (keyof Item)[]][] = [
  [11, ['punchOptions']],
  [12, ['v12Int', 'v12Bytes']],
  [13, ['lightRange']],
  [14, ['v14Int']],
  [15, ['canSit', 'playerOffsetX', 'playerOffsetY', 'chairTextureX', 'chairTextureY', 'chairLegOffsetX']],
  [15, ['chairLegOffsetY', 'chairTexture']],
  [16, ['itemRenderer']],
  [17, ['v17Int']],
  [18, ['v18Int']],
  [19, ['v19Bytes']],
  [21, ['v21Short']],
  [22, ['info']],
  [23, ['recipe']],
  [24, ['v24Byte']],
  [25, ['v25String', 'v25Int']],
  [26, ['v26Byte']],
];

/** DIRT_V26 with the fields newer than `version` back at their defaults. */
function dirtAt(version: number): Item {
  const blank = createItem(2) as unknown as Record<string, unknown>;
  const item = { ...DIRT_V26 } as unknown as Record<string, unknown>;
  for (const [since, keys] of SINCE) if (version < since) for (const key of keys) item[key] = blank[key];
  return item as unknown as Item;
}

// Every version from 1 to 26, so each version gate of the tail is checked on its own.
for (let version = 1; version <= 26; version++) {
  test(`hand-built v${version} file decodes field by field and re-encodes byte for byte`, () => {
    const bytes = handFile(version);
    const dat = decodeItemsDat(bytes);
    assert.equal(dat.version, version);
    assert.equal(dat.items.length, 1);
    assert.deepEqual(dat.items[0], dirtAt(version));
    assert.deepEqual(encodeItemsDat(dat), bytes);
    // Encoding the full v26 item at an older version drops exactly the newer fields.
    assert.deepEqual(encodeItemsDat({ version, items: [DIRT_V26] }), bytes);
  });
}

test('v11 and v15 items lack the later fields', () => {
  const v11 = decodeItemsDat(handFile(11)).items[0] as Item;
  assert.deepEqual([v11.punchOptions, v11.v12Int, v11.lightRange, v11.chairTexture], ['punch', 0, 0, '']);
  const v15 = decodeItemsDat(handFile(15)).items[0] as Item;
  assert.deepEqual([v15.canSit, v15.chairLegOffsetY, v15.chairTexture, v15.itemRenderer], [1, -15, 'chair.rttex', '']);
});

test('names are obfuscated with the item id (wrapping around the key) and clear before v3', () => {
  const bytes = handFile(26, [DIRT_OBFUSCATED, CAVE_OBFUSCATED]);
  assert.deepEqual(
    decodeItemsDat(bytes).items.map((i) => [i.id, i.name]),
    [
      [2, 'Dirt'],
      [14, 'Cave'],
    ],
  );
  const clear = handFile(2);
  assert.equal(decodeItemsDat(clear).items[0]?.name, 'Dirt');
  assert.deepEqual(encodeItemsDat(decodeItemsDat(clear)), clear);
});

test('truncation, trailing bytes and unknown versions are precise errors', () => {
  const bytes = handFile(26, [DIRT_OBFUSCATED, CAVE_OBFUSCATED]);
  for (let n = 0; n < bytes.length; n++) {
    assert.throws(
      () => decodeItemsDat(bytes.subarray(0, n)),
      /^Error: items\.dat.*(truncated|does not fit)/,
      `len ${n}`,
    );
  }
  // The file ends with v25Int (4 bytes) and v26Byte; cutting 3 bytes leaves half of v25Int.
  assert.throws(
    () => decodeItemsDat(bytes.subarray(0, bytes.length - 3)),
    new Error(`items.dat v26 item #1: truncated at offset ${bytes.length - 5}: v25Int needs 4 bytes, 2 left`),
  );
  assert.throws(
    () => decodeItemsDat(Uint8Array.from([...bytes, 0])),
    new Error(`items.dat v26: 1 unexpected bytes after the last item at offset ${bytes.length}`),
  );
  const v27 = bytes.slice();
  v27[0] = 27;
  assert.throws(() => decodeItemsDat(v27), new Error('items.dat: unsupported version 27 (supported 1..26)'));
  const huge = new Hand().u16(26).u32(100000).bytes();
  assert.throws(() => decodeItemsDat(huge), /item count 100000 does not fit in the 0 bytes that follow/);
});

test('encoding rejects values the format cannot hold', () => {
  const bad = (fields: Partial<Item>) => () => encodeItemsDat({ version: 26, items: [createItem(1, fields)] });
  assert.throws(bad({ rarity: 40000 }), /^Error: items\.dat v26 item #0: rarity must be an integer in -32768\.\.32767/);
  assert.throws(bad({ textureHash: -1 }), /textureHash must be an integer in 0\.\.4294967295, got -1/);
  assert.throws(bad({ name: 'Snow\u2603' }), /name has a character above U\+00FF at index 4/);
  assert.throws(bad({ breakHits: 1.1 }), /breakHits must be n\/6/);
  assert.throws(bad({ reserved: new Uint8Array(79) }), /reserved must be 80 bytes, got 79/);
  assert.throws(() => encodeItemsDat({ version: 0, items: [] }), /unsupported version 0/);
});
