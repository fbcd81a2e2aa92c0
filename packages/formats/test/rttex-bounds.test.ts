import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deflateSync, inflateSync } from 'node:zlib';
import {
  buildItemsDat,
  createItem,
  encodeRttxtr,
  maxRttxtrSize,
  packRtpack,
  RttexUploadError,
  verifyRttexUpload,
  verifyRttexUploadAsync,
} from '../src/index.ts';

const deflate = (d: Uint8Array) => new Uint8Array(deflateSync(d));
/** Records the largest output any inflate was allowed, to show the cap is what the header says. */
const calls: number[] = [];
const inflate = (data: Uint8Array, max: number) => {
  calls.push(max);
  return new Uint8Array(inflateSync(data, { maxOutputLength: max }));
};
const rgba = (w: number, h: number) => ({ width: w, height: h, rgba: new Uint8Array(w * h * 4).fill(7) });
const refused = (bytes: Uint8Array, message: RegExp) =>
  assert.throws(
    () => verifyRttexUpload(bytes, inflate),
    (e: unknown) => e instanceof RttexUploadError && message.test(e.message),
  );

describe('verifyRttexUpload', () => {
  it('accepts what the panel makes, RTPACK or bare, and reports its size', () => {
    const bare = encodeRttxtr(rgba(20, 32));
    assert.deepEqual(verifyRttexUpload(bare, inflate), { width: 20, height: 32, paddedWidth: 32, paddedHeight: 32 });
    assert.equal(verifyRttexUpload(packRtpack(bare, deflate), inflate).width, 20);
    assert.equal(verifyRttexUpload(packRtpack(encodeRttxtr(rgba(1024, 1024)), deflate), inflate).paddedWidth, 1024);
  });

  it('refuses a tiny file that claims 60000x60000 pixels before allocating anything', () => {
    const file = encodeRttxtr(rgba(8, 8));
    const view = new DataView(file.buffer);
    for (const at of [8, 12, 20, 24, 100, 104]) view.setInt32(at, 60000, true);
    refused(file, /60000x60000 pixels; at most 1024x1024/);
    calls.length = 0;
    refused(packRtpack(file, deflate), /60000x60000 pixels/);
    assert.deepEqual(calls, [file.length], 'inflated only up to the few bytes its RTPACK header declares');
    const claims = packRtpack(file, deflate);
    new DataView(claims.buffer).setUint32(12, 0xffffffff, true); // 60000² x 4 bytes does not even fit
    calls.length = 0;
    refused(claims, /at most \d+ \(1024x1024\)/);
    assert.deepEqual(calls, [], 'a huge declared size is refused before inflating');
  });

  it('refuses a zlib bomb: inflating stops at the declared size', () => {
    const bomb = packRtpack(new Uint8Array(200 * 1024 * 1024), deflate);
    new DataView(bomb.buffer).setUint32(12, 124 + 32 * 32 * 4, true);
    assert.ok(bomb.length < 300 * 1024, 'the bomb itself is small');
    calls.length = 0;
    refused(bomb, /corrupt or larger than its header says/);
    assert.deepEqual(calls, [124 + 32 * 32 * 4]);
  });

  it('refuses a header that claims more than the limit even when honest', () => {
    const big = packRtpack(encodeRttxtr(rgba(2048, 8)), deflate);
    refused(big, /at most/);
    assert.equal(maxRttxtrSize(1024), 124 + 1024 * 1024 * 4);
  });

  it('refuses truncated files, trailing bytes, wrong magic and inconsistent sizes', () => {
    const packed = packRtpack(encodeRttxtr(rgba(32, 32)), deflate);
    refused(packed.subarray(0, packed.length - 1), /truncated/);
    refused(packed.subarray(0, 20), /truncated/);
    const longer = new Uint8Array(packed.length + 4);
    longer.set(packed);
    refused(longer, /unexpected bytes/);
    const bare = encodeRttxtr(rgba(32, 32));
    refused(bare.subarray(0, bare.length - 1), /truncated/);
    refused(bare.subarray(0, 50), /header is incomplete/);
    refused(new Uint8Array(64).fill(0x41), /not an RTTEX texture/);
    const wrongSize = encodeRttxtr(rgba(32, 32));
    new DataView(wrongSize.buffer).setInt32(108, 99, true);
    refused(wrongSize, /pixel data size/);
    const lies = packRtpack(encodeRttxtr(rgba(32, 32)), deflate);
    new DataView(lies.buffer).setUint32(12, 124 + 16 * 16 * 4, true);
    refused(lies, /corrupt or larger/);
  });
});

describe('buildItemsDat', () => {
  const base = { version: 26, items: [0, 1, 2].map((id) => createItem(id, { name: `Item ${id}`, rarity: 1 })) };

  it('overrides base items, appends new ids in order and fills gaps with placeholders', () => {
    const dat = buildItemsDat(base, [
      {
        id: 6,
        name: 'Six',
        rarity: 9,
        texture: {
          file: 'custom_a.rttex',
          hash: 5,
          x: 1,
          y: 2,
          kind: 7,
          clothingType: 0,
          breakHits: 50,
          growTime: 60,
          collisionType: 0,
        },
      },
      { id: 1, name: 'One', description: 'Changed', rarity: 3 },
    ]);
    assert.deepEqual(
      dat.items.map((i) => [i.id, i.name]),
      [
        [0, 'Item 0'],
        [1, 'One'],
        [2, 'Item 2'],
        [3, 'Unused 3'],
        [4, 'Unused 4'],
        [5, 'Unused 5'],
        [6, 'Six'],
      ],
    );
    assert.equal(dat.items[1]?.info, 'Changed');
    const six = dat.items[6];
    assert.equal(six?.actionType, 20, 'clothing');
    assert.equal(six?.breakHits, 42, 'break hits capped at what a byte holds');
    assert.equal(six?.texture, 'custom_a.rttex');
    assert.equal(base.items[1]?.name, 'Item 1', 'the base is not modified');
    assert.throws(() => buildItemsDat(base, [{ id: 70000, name: 'x', rarity: 1 }]), /outside/);
  });
});

describe('verifyRttexUploadAsync', () => {
  const inflateAsync = async (data: Uint8Array, max: number) => inflate(data, max);
  it('applies the same checks with an asynchronous inflate', async () => {
    const good = packRtpack(encodeRttxtr(rgba(32, 32)), deflate);
    assert.equal((await verifyRttexUploadAsync(good, inflateAsync)).width, 32);
    const bomb = packRtpack(new Uint8Array(50 * 1024 * 1024), deflate);
    new DataView(bomb.buffer).setUint32(12, 124 + 32 * 32 * 4, true);
    await assert.rejects(verifyRttexUploadAsync(bomb, inflateAsync), /corrupt or larger than its header says/);
    await assert.rejects(verifyRttexUploadAsync(good.subarray(0, 40), inflateAsync), /truncated/);
  });
});
