import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeRtpackInBrowser } from '../src/browser.ts';
import { cutSprite, decodeRttxtr, encodeRttxtr, nextPowerOfTwo, type RgbaImage } from '../src/index.ts';
import { decodeRttexFile, encodeRtpack } from '../src/node.ts';

/** A 33x17 image whose every byte encodes its own position, so any misplaced pixel shows. */
function pattern(width: number, height: number): RgbaImage {
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) rgba.set([x, y, (x * 7 + y) & 0xff, 200 + (x % 50)], (y * width + x) * 4);
  }
  return { width, height, rgba };
}

const i32At = (bytes: Uint8Array, at: number) => new DataView(bytes.buffer, bytes.byteOffset).getInt32(at, true);
const u32At = (bytes: Uint8Array, at: number) => new DataView(bytes.buffer, bytes.byteOffset).getUint32(at, true);

test('nextPowerOfTwo', () => {
  assert.deepEqual([1, 2, 3, 17, 32, 33].map(nextPowerOfTwo), [1, 2, 4, 32, 32, 64]);
});

test('RTTXTR encode pads 33x17 to 64x32, stores rows bottom-up, and decodes back', () => {
  const image = pattern(33, 17);
  const file = encodeRttxtr(image);
  assert.equal(file.length, 100 + 24 + 64 * 32 * 4);
  assert.equal(new TextDecoder().decode(file.subarray(0, 6)), 'RTTXTR');
  // height, width, format, original height, original width, usesAlpha, mip count
  assert.deepEqual(
    [8, 12, 16, 20, 24].map((at) => i32At(file, at)),
    [32, 64, 5121, 17, 33],
  );
  assert.equal(file[28], 1);
  assert.equal(i32At(file, 32), 1);
  // mip header: height, width, data size, level
  assert.deepEqual(
    [100, 104, 108, 112].map((at) => i32At(file, at)),
    [32, 64, 8192, 0],
  );
  const pixel = (storedRow: number, x: number) => [...file.subarray(124 + (storedRow * 64 + x) * 4).subarray(0, 4)];
  assert.deepEqual(pixel(16, 0), [0, 0, 0, 200], 'top-left input pixel is stored in row 16');
  assert.deepEqual(pixel(0, 0), [0, 16, 16, 200], 'bottom-left input pixel is stored in row 0');
  assert.deepEqual(pixel(0, 32), [32, 16, (32 * 7 + 16) & 0xff, 232]);
  assert.deepEqual(pixel(0, 33), [0, 0, 0, 0], 'columns past the original width are padding');
  assert.deepEqual(pixel(17, 0), [0, 0, 0, 0], 'rows past the original height are padding');

  const decoded = decodeRttxtr(file);
  assert.deepEqual(
    { w: decoded.width, h: decoded.height, pw: decoded.paddedWidth, ph: decoded.paddedHeight },
    { w: 33, h: 17, pw: 64, ph: 32 },
  );
  assert.deepEqual(decoded.rgba, image.rgba);
});

test('RTPACK round trip in Node and through DecompressionStream', async () => {
  const image = pattern(33, 17);
  const packed = encodeRtpack(image);
  const inner = encodeRttxtr(image);
  assert.equal(new TextDecoder().decode(packed.subarray(0, 6)), 'RTPACK');
  assert.equal(packed[16], 1, 'compression type zlib');
  assert.equal(u32At(packed, 8), packed.length - 32, 'compressed size');
  assert.equal(u32At(packed, 12), inner.length, 'decompressed size');
  assert.deepEqual(decodeRttexFile(packed).rgba, image.rgba);
  assert.deepEqual((await decodeRtpackInBrowser(packed)).rgba, image.rgba);
  // A bare RTTXTR is accepted by both entry points.
  assert.deepEqual(decodeRttexFile(inner).rgba, image.rgba);
  assert.deepEqual((await decodeRtpackInBrowser(inner)).rgba, image.rgba);
});

test('RGB textures (usesAlpha 0) decode with opaque alpha', () => {
  const file = new Uint8Array(100 + 24 + 2 * 2 * 3);
  const view = new DataView(file.buffer);
  file.set(new TextEncoder().encode('RTTXTR'));
  for (const [i, v] of [2, 2, 5121, 2, 2].entries()) view.setInt32(8 + i * 4, v, true);
  view.setInt32(32, 1, true);
  for (const [i, v] of [2, 2, 12, 0].entries()) view.setInt32(100 + i * 4, v, true);
  file.set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], 124); // stored bottom row first
  const { rgba } = decodeRttxtr(file);
  assert.deepEqual([...rgba], [7, 8, 9, 255, 10, 11, 12, 255, 1, 2, 3, 255, 4, 5, 6, 255]);
});

test('truncated input throws a precise error at every length, never a RangeError', async () => {
  const packed = encodeRtpack(pattern(5, 3));
  const bare = encodeRttxtr(pattern(5, 3));
  for (let n = 0; n < packed.length; n++) {
    assert.throws(() => decodeRttexFile(packed.subarray(0, n)), /RTPACK: truncated|RTTEX: wrong magic/, `len ${n}`);
  }
  await assert.rejects(decodeRtpackInBrowser(packed.subarray(0, 40)), /RTPACK: truncated payload/);
  for (let n = 0; n < bare.length; n++) {
    assert.throws(() => decodeRttxtr(bare.subarray(0, n)), /^Error: RTTXTR: truncated at offset \d+/, `len ${n}`);
  }
});

test('wrong magic, corrupt zlib and bad headers are reported', async () => {
  const packed = encodeRtpack(pattern(4, 4));
  const bad = packed.slice();
  bad.set(new TextEncoder().encode('RTPACX'));
  assert.throws(() => decodeRttexFile(bad), /RTTEX: wrong magic "RTPACX", expected "RTPACK" or "RTTXTR"/);
  assert.throws(() => decodeRttxtr(bad), /RTTXTR: wrong magic "RTPACX"/);
  const corrupt = packed.slice();
  corrupt.fill(0xee, 34);
  assert.throws(() => decodeRttexFile(corrupt), /RTPACK: corrupt zlib payload/);
  await assert.rejects(decodeRtpackInBrowser(corrupt), /RTPACK: corrupt zlib payload/);
  const lying = packed.slice();
  new DataView(lying.buffer).setUint32(12, 5, true);
  assert.throws(() => decodeRttexFile(lying), /inflated to 188 bytes, header says 5/);
  const rgb565 = encodeRttxtr(pattern(4, 4));
  new DataView(rgb565.buffer).setInt32(16, 33635, true);
  assert.throws(() => decodeRttxtr(rgb565), /unsupported pixel format 33635/);
  const tooWide = encodeRttxtr(pattern(4, 4));
  new DataView(tooWide.buffer).setInt32(24, 5, true);
  assert.throws(() => decodeRttxtr(tooWide), /original size 5x4 exceeds stored size 4x4/);
  assert.throws(() => encodeRttxtr({ width: 3, height: 3, rgba: new Uint8Array(35) }), /needs 36 bytes, got 35/);
});

test('cutSprite picks the right 32x32 cell and pads partial cells with transparency', () => {
  const width = 96;
  const height = 64;
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++)
      rgba.set([Math.floor(x / 32) * 10, Math.floor(y / 32) * 10, 7, 255], (y * width + x) * 4);
  }
  const cell = cutSprite({ width, height, rgba }, 2, 1);
  assert.equal(cell.length, 32 * 32 * 4);
  for (let i = 0; i < cell.length; i += 4) assert.deepEqual([...cell.subarray(i, i + 4)], [20, 10, 7, 255]);

  const small = cutSprite({ width: 80, height: 40, rgba: new Uint8Array(80 * 40 * 4).fill(9) }, 2, 1);
  assert.deepEqual([...small.subarray((7 * 32 + 15) * 4, (7 * 32 + 16) * 4)], [9, 9, 9, 9]);
  assert.deepEqual([...small.subarray((7 * 32 + 16) * 4, (7 * 32 + 17) * 4)], [0, 0, 0, 0]);
  assert.deepEqual([...small.subarray(8 * 32 * 4, (8 * 32 + 1) * 4)], [0, 0, 0, 0]);
  assert.throws(() => cutSprite({ width, height, rgba }, 3, 0), /cell \(3, 0\) lies outside the 96x64 texture/);
  assert.throws(() => cutSprite({ width, height, rgba }, -1, 0), /must be non-negative integers/);
});
