import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatDate, formatDateTime, formatSize } from '../src/lib/format.ts';

describe('formatSize', () => {
  test('zero is 0MB', () => assert.equal(formatSize(0), '0MB'));

  test('missing or negative values are N/A', () => {
    assert.equal(formatSize(null), 'N/A');
    assert.equal(formatSize(undefined), 'N/A');
    assert.equal(formatSize(Number.NaN), 'N/A');
    assert.equal(formatSize(-1), 'N/A');
  });

  test('below 1024 stays in MB, one decimal only when fractional', () => {
    assert.equal(formatSize(512), '512MB');
    assert.equal(formatSize(12.5), '12.5MB');
    assert.equal(formatSize(12.34), '12.3MB');
    assert.equal(formatSize(1023), '1023MB');
  });

  test('1024 MB or more shows GB with one decimal', () => {
    assert.equal(formatSize(1024), '1.0GB');
    assert.equal(formatSize(1536), '1.5GB');
    assert.equal(formatSize(256 * 1024), '256.0GB');
  });

  test('1024 GB or more shows TB with one decimal', () => {
    assert.equal(formatSize(1024 * 1024), '1.0TB');
    assert.equal(formatSize(1.5 * 1024 * 1024), '1.5TB');
  });

  test('above 1024^3 MB is Unlimited, exactly 1024^3 is not', () => {
    assert.equal(formatSize(1024 * 1024 * 1024), '1024.0TB');
    assert.equal(formatSize(1024 * 1024 * 1024 + 1), 'Unlimited');
    assert.equal(formatSize(Number.POSITIVE_INFINITY), 'Unlimited');
  });
});

describe('formatDate / formatDateTime', () => {
  // Local-time inputs keep the expectations independent of the machine's time zone.
  const at = new Date(2026, 10, 21, 14, 5, 9);

  test('en-GB day/month/year', () => {
    assert.equal(formatDate(at), '21/11/2026');
    assert.equal(formatDate(at.getTime()), '21/11/2026');
    assert.equal(formatDate('2026-02-03T10:00:00'), '03/02/2026');
    assert.equal(formatDate('21-11-2026, 14.05.09'), '21/11/2026');
  });

  test('en-GB date and 24-hour time', () => {
    assert.equal(formatDateTime(at), '21/11/2026, 14:05:09');
    assert.equal(formatDateTime('21-11-2026, 14.05.09'), '21/11/2026, 14:05:09');
  });

  test('invalid input is N/A', () => {
    assert.equal(formatDate('not a date'), 'N/A');
    assert.equal(formatDate(''), 'N/A');
    assert.equal(formatDate(Number.NaN), 'N/A');
    assert.equal(formatDate(new Date(Number.NaN)), 'N/A');
    assert.equal(formatDateTime('31-02-2026'), 'N/A');
  });
});
