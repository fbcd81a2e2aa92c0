import assert from 'node:assert/strict';
import { test } from 'node:test';
import { crc32, inflateSync } from 'node:zlib';
import { decode } from 'fast-png';
import { encodePng } from '../src/node.ts';

const rgba = Uint8Array.from([255, 0, 0, 255, 0, 255, 0, 128, 0, 0, 255, 0, 1, 2, 3, 4]);

/** The chunks of a PNG file, checking every CRC on the way. */
function chunks(png: Uint8Array) {
  const view = new DataView(png.buffer, png.byteOffset);
  const out: { type: string; data: Uint8Array }[] = [];
  for (let at = 8; at < png.length; ) {
    const length = view.getUint32(at);
    const type = new TextDecoder().decode(png.subarray(at + 4, at + 8));
    assert.equal(view.getUint32(at + 8 + length), crc32(png.subarray(at + 4, at + 8 + length)), `${type} CRC`);
    out.push({ type, data: png.subarray(at + 8, at + 8 + length) });
    at += 12 + length;
  }
  return out;
}

test('encodePng writes an 8-bit RGBA PNG whose pixels read back exactly', () => {
  const png = encodePng(2, 2, rgba);
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const parts = chunks(png);
  assert.equal(parts[0]?.type, 'IHDR');
  assert.equal(parts.at(-1)?.type, 'IEND');
  // width 2, height 2, bit depth 8, colour type 6 (RGBA), deflate, filter method 0, no interlace
  assert.deepEqual([...(parts[0]?.data ?? [])], [0, 0, 0, 2, 0, 0, 0, 2, 8, 6, 0, 0, 0]);
  // The IDAT stream is standard zlib: node:zlib inflates it to 2 rows of (filter byte + 8 pixel bytes).
  const idat = parts.filter((c) => c.type === 'IDAT').map((c) => c.data);
  const raw = inflateSync(Buffer.concat(idat));
  assert.equal(raw.length, 2 * (1 + 8));
  const back = decode(png);
  assert.equal(back.width, 2);
  assert.equal(back.channels, 4);
  assert.deepEqual([...back.data], [...rgba]);
});

test('encodePng refuses sizes that do not match the pixels', () => {
  assert.throws(() => encodePng(2, 2, new Uint8Array(15)), /needs 16 bytes, got 15/);
  assert.throws(() => encodePng(0, 2, new Uint8Array(0)), /must be positive integers/);
  assert.throws(() => encodePng(1.5, 2, new Uint8Array(12)), /must be positive integers/);
});
