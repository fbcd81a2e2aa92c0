import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LineRing } from '../src/runtime/local/line-ring.ts';

const filled = (capacity: number, count: number) => {
  const ring = new LineRing(capacity);
  for (let i = 1; i <= count; i++) ring.push(`l${i}`);
  return ring;
};
const names = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `l${from + i}`);

describe('LineRing', () => {
  it('is empty at first', () => {
    const ring = new LineRing(3);
    assert.equal(ring.size, 0);
    assert.deepEqual(ring.last(), []);
    assert.deepEqual(ring.last(5), []);
  });

  it('keeps every line, oldest first, until full', () => {
    assert.deepEqual(filled(5, 3).last(), names(1, 3));
    assert.equal(filled(5, 3).size, 3);
  });

  it('holds exactly capacity lines when exactly full', () => {
    const ring = filled(4, 4);
    assert.equal(ring.size, 4);
    assert.deepEqual(ring.last(), names(1, 4));
  });

  it('drops the oldest lines once it wraps, keeping the order', () => {
    assert.deepEqual(filled(4, 5).last(), names(2, 5));
    assert.deepEqual(filled(4, 10).last(), names(7, 10));
    // Many times round, ending on and off the slot boundary.
    assert.deepEqual(filled(1000, 25_000).last(), names(24_001, 25_000));
    assert.deepEqual(filled(1000, 25_333).last(), names(24_334, 25_333));
    assert.equal(filled(4, 10).size, 4);
  });

  it('with capacity 1 keeps the newest line', () => {
    const ring = filled(1, 3);
    assert.equal(ring.size, 1);
    assert.deepEqual(ring.last(), ['l3']);
    assert.deepEqual(ring.last(20), ['l3']);
  });

  it('gives the newest n lines, oldest first, across the wrap', () => {
    const ring = filled(5, 7); // slots hold l6 l7 l3 l4 l5
    assert.deepEqual(ring.last(3), ['l5', 'l6', 'l7']);
    assert.deepEqual(ring.last(2), ['l6', 'l7']);
    assert.deepEqual(ring.last(0), []);
    assert.deepEqual(ring.last(20), names(3, 7));
    assert.deepEqual(filled(5, 2).last(20), names(1, 2));
  });

  it('hands out copies: a snapshot does not change with later lines', () => {
    const ring = filled(3, 3);
    const snapshot = ring.last();
    ring.push('l4');
    assert.deepEqual(snapshot, names(1, 3));
  });

  it('refuses a capacity that is not a positive integer', () => {
    for (const capacity of [0, -1, 1.5, Number.NaN]) assert.throws(() => new LineRing(capacity), RangeError);
  });
});
