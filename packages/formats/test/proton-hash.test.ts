import assert from 'node:assert/strict';
import { test } from 'node:test';
import { protonHash } from '../src/index.ts';

// Worked by hand from h = 0x55555555; h = (h >>> 27) + (h << 5) + b (mod 2^32):
//   [0x00]: (0x55555555 >>> 27) = 0x0a, (0x55555555 << 5) = 0xaaaaaaa0 -> 0xaaaaaaaa
//   "A":    0xaaaaaaaa + 0x41 = 0xaaaaaaeb
//   "AB":   (0xaaaaaaeb >>> 27) = 0x15, (0xaaaaaaeb << 5) = 0x55555d60 -> 0x55555d60 + 0x15 + 0x42 = 0x55555db7
test('proton hash matches hand-computed vectors', () => {
  assert.equal(protonHash(new Uint8Array()), 0x55555555);
  assert.equal(protonHash(new Uint8Array([0])), 0xaaaaaaaa);
  assert.equal(protonHash(new TextEncoder().encode('A')), 0xaaaaaaeb);
  assert.equal(protonHash(new TextEncoder().encode('AB')), 0x55555db7);
  // Bytes are unsigned: 0xff adds 255, not -1.
  assert.equal(protonHash(new Uint8Array([0xff])), 0xaaaaaba9);
});

test('proton hash agrees with a BigInt reference, including steps where h << 5 sets the sign bit', () => {
  const mask = 0xffffffffn;
  const bytes = new Uint8Array(4096).map((_, i) => (i * 197 + 89) & 0xff);
  let h = 0x55555555n;
  let signed = 0;
  for (const b of bytes) {
    const shifted = (h << 5n) & mask;
    // In JavaScript `h << 5` is a signed 32-bit result; these steps catch a missing `>>> 0`.
    if (shifted >= 0x80000000n) signed++;
    h = ((h >> 27n) + shifted + BigInt(b)) & mask;
  }
  assert.ok(signed > 1000, `expected many sign-bit steps, got ${signed}`);
  assert.equal(protonHash(bytes), Number(h));
});
