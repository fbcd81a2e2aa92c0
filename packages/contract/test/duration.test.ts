import assert from 'node:assert/strict';
import { it } from 'node:test';
import { DURATION_MAX_MS, parseDuration, utcDateTimeText } from '../src/duration.ts';

it('reads the admin durations: d, w, h, m, s and perm', () => {
  assert.equal(parseDuration('30d'), 30 * 86_400_000);
  assert.equal(parseDuration('2w'), 14 * 86_400_000);
  assert.equal(parseDuration('12h'), 12 * 3_600_000);
  assert.equal(parseDuration('30m'), 30 * 60_000);
  assert.equal(parseDuration('45s'), 45_000);
  assert.equal(parseDuration(' PERM '), null);
  assert.equal(parseDuration('7D'), 7 * 86_400_000);
});

it('refuses what is not a duration', () => {
  for (const bad of ['', '30', 'd', '0d', '-1d', '1.5d', '30 d', '3y', 'permanent', '9999999d'])
    assert.equal(parseDuration(bad), undefined, bad);
  assert.equal(parseDuration('3650d'), DURATION_MAX_MS);
  assert.equal(parseDuration('3651d'), undefined);
});

it('writes a moment for api texts in UTC, without a raw ISO timestamp', () => {
  assert.equal(utcDateTimeText('2026-12-22T22:16:00.549Z'), '22 Dec 2026, 22:16 UTC');
  assert.equal(utcDateTimeText(Date.UTC(2027, 0, 3, 4, 5)), '3 Jan 2027, 04:05 UTC');
});
