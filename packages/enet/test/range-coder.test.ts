import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rangeDecode, rangeEncode } from '../src/range-coder.ts';

/** A deterministic byte source (xorshift32), so a failure reproduces. */
function bytes(n: number, seed: number, alphabet = 256): Buffer {
  const out = Buffer.alloc(n);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x % alphabet;
  }
  return out;
}

function roundTrip(input: Buffer): Buffer | null {
  const packed = rangeEncode(input);
  assert.ok(packed, 'encodes');
  return rangeDecode(packed, input.length + 16);
}

test('a single byte v encodes as the four bytes of (1 + v) * 0x00FF00FF', () => {
  // Derived by hand from the model: the fresh root has 1 escape + 256 bytes of count 1 (total 257), so byte v is the
  // interval [1 + v, 2 + v) of 257: range = floor(0xFFFFFFFF / 257) = 0x00FF00FF, low = (1 + v) * range. The top
  // bytes of low and low + range differ and range >= 2^16, so nothing is emitted until the flush writes low's 4 bytes.
  assert.deepEqual(rangeEncode(Buffer.from([0x00])), Buffer.from([0x00, 0xff, 0x00, 0xff]));
  assert.deepEqual(rangeEncode(Buffer.from([0x41])), Buffer.from([0x41, 0xbe, 0x41, 0xbe]));
  assert.deepEqual(rangeDecode(Buffer.from([0x41, 0xbe, 0x41, 0xbe]), 16), Buffer.from([0x41]));
  assert.deepEqual(rangeDecode(Buffer.from([0x00, 0xff, 0x00, 0xff]), 16), Buffer.from([0x00]));
});

test('round-trips text, random bytes, runs and every byte value', () => {
  const cases = [
    Buffer.from('action|join_request\nname|START\ninvitedWorld|0\n'),
    Buffer.from('a'),
    Buffer.alloc(1000, 0),
    Buffer.alloc(3000, 0xff),
    bytes(1400, 7),
    bytes(1400, 9, 4),
    Buffer.from(Array.from({ length: 256 }, (_, i) => i)),
    Buffer.from(Array.from({ length: 512 }, (_, i) => 255 - (i % 256))),
  ];
  for (const input of cases) assert.deepEqual(roundTrip(input), input, `length ${input.length}`);
});

test('round-trips inputs long enough to refill the symbol table and rescale counts', () => {
  // 4096 symbols run out after roughly 1400 fresh contexts; 60 KB of skewed bytes also overflows the counts.
  for (const [n, seed, alphabet] of [
    [20_000, 3, 256],
    [60_000, 5, 3],
    [30_000, 11, 40],
  ] as const) {
    const input = bytes(n, seed, alphabet);
    assert.deepEqual(roundTrip(input), input, `${n} bytes over ${alphabet} values`);
  }
});

test('compresses repetitive game text below its size', () => {
  const text = Buffer.from('OnConsoleMessage CP:0_PL:0_OID:_CT:[W]_ hello hello hello hello hello hello');
  const packed = rangeEncode(text);
  assert.ok(packed && packed.length < text.length, `${packed?.length} < ${text.length}`);
});

test('refuses output past its limit and garbage that walks off the model', () => {
  assert.equal(rangeEncode(bytes(500, 13), 100), null);
  const packed = rangeEncode(Buffer.alloc(400, 7));
  assert.ok(packed);
  assert.equal(rangeDecode(packed, 100), null);
  assert.equal(rangeDecode(Buffer.alloc(0), 100), null);
  // Random input either decodes to something or is refused: never a throw or a hang.
  for (let seed = 1; seed < 200; seed++) rangeDecode(bytes(64, seed), 4096);
});
