import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseExpiry, parseFlexibleDate } from '../src/lib/date-parse.ts';

const local = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0) =>
  new Date(y, mo - 1, d, h, mi, s, ms).getTime();

describe('parseFlexibleDate', () => {
  test("reads 'day-month-year, hh.mm.ss' as local time", () => {
    assert.equal(parseFlexibleDate('21-11-2026, 14.05.09')?.getTime(), local(2026, 11, 21, 14, 5, 9));
    assert.equal(parseFlexibleDate('1-2-2026, 7.30.00')?.getTime(), local(2026, 2, 1, 7, 30, 0));
  });

  test('day comes first with slashes too (never the US reading)', () => {
    assert.equal(parseFlexibleDate('01/02/2026')?.getTime(), local(2026, 2, 1));
  });

  test('reads ISO 8601', () => {
    assert.equal(parseFlexibleDate('2026-11-21T14:05:09.000Z')?.getTime(), Date.UTC(2026, 10, 21, 14, 5, 9));
    assert.equal(parseFlexibleDate('2026-11-21T14:05:09')?.getTime(), local(2026, 11, 21, 14, 5, 9));
  });

  test('rejects garbage and impossible dates', () => {
    assert.equal(parseFlexibleDate(''), null);
    assert.equal(parseFlexibleDate('   '), null);
    assert.equal(parseFlexibleDate(null), null);
    assert.equal(parseFlexibleDate('permanent'), null);
    assert.equal(parseFlexibleDate('31-02-2026, 10.00.00'), null);
    assert.equal(parseFlexibleDate('21-11-2026, 25.00.00'), null);
  });
});

describe('parseExpiry', () => {
  test('empty, missing or containing "permanent" (any case) is permanent', () => {
    for (const text of ['', '  ', null, undefined, 'permanent', 'PERMANENT', 'Permanent server']) {
      assert.deepEqual(parseExpiry(text), { kind: 'permanent' }, String(text));
    }
  });

  test('a day-only grace end is read as the start of that (UTC) day: the panel never shows more time than there is', () => {
    // The api writes the day in UTC; the scheduler deletes somewhere within it, never before its start.
    assert.deepEqual(parseExpiry('Grace period ends 24/11/2026'), {
      kind: 'grace',
      endsAt: new Date(Date.UTC(2026, 10, 24)),
    });
    assert.deepEqual(parseExpiry('grace period ends 4/1/2027'), {
      kind: 'grace',
      endsAt: new Date(Date.UTC(2027, 0, 4)),
    });
  });

  test('an unreadable grace date is invalid', () => {
    assert.deepEqual(parseExpiry('Grace period ends 32/11/2026'), { kind: 'invalid' });
    assert.deepEqual(parseExpiry('Grace period ends soon'), { kind: 'invalid' });
  });

  test('anything else is a date or invalid', () => {
    assert.deepEqual(parseExpiry('21-11-2026, 14.05.09'), {
      kind: 'date',
      at: new Date(local(2026, 11, 21, 14, 5, 9)),
    });
    assert.deepEqual(parseExpiry('2026-11-21T14:05:09.000Z'), {
      kind: 'date',
      at: new Date(Date.UTC(2026, 10, 21, 14, 5, 9)),
    });
    assert.deepEqual(parseExpiry('whenever'), { kind: 'invalid' });
  });
});
