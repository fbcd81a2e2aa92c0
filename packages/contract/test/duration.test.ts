import assert from 'node:assert/strict';
import { it } from 'node:test';
import { DURATION_MAX_MS, parseDuration } from '../src/duration.ts';

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
