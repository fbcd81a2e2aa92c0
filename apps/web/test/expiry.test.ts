import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseExpiry } from '../src/lib/date-parse.ts';
import {
  describeBanCountdown,
  describeExpiry,
  describeServerTime,
  msUntilBanEnds,
  msUntilNextPhase,
  serverTimePhase,
} from '../src/lib/expiry.ts';

const NOW = new Date(Date.UTC(2026, 10, 21, 12, 0, 0));
const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;
const after = (ms: number) => new Date(NOW.getTime() + ms);

describe('describeExpiry', () => {
  test('days and hours when at least a day is left', () => {
    assert.deepEqual(describeExpiry({ kind: 'date', at: after(2 * D + 5 * H + 59 * M) }, NOW), {
      text: '2d 5h remaining',
      tone: 'normal',
    });
    assert.equal(describeExpiry({ kind: 'date', at: after(D) }, NOW).text, '1d 0h remaining');
  });

  test('hours and minutes when at least an hour is left', () => {
    assert.equal(describeExpiry({ kind: 'date', at: after(D - 1) }, NOW).text, '23h 59m remaining');
    assert.equal(describeExpiry({ kind: 'date', at: after(H + 30 * M) }, NOW).text, '1h 30m remaining');
  });

  test('minutes and seconds under an hour', () => {
    assert.equal(describeExpiry({ kind: 'date', at: after(H - 1) }, NOW).text, '59m 59s remaining');
    assert.equal(describeExpiry({ kind: 'date', at: after(1500) }, NOW).text, '0m 1s remaining');
  });

  test('a reached or past date is Expired', () => {
    assert.deepEqual(describeExpiry({ kind: 'date', at: NOW }, NOW), { text: 'Expired', tone: 'danger' });
    assert.deepEqual(describeExpiry({ kind: 'date', at: after(-D) }, NOW), { text: 'Expired', tone: 'danger' });
  });

  test('permanent and invalid', () => {
    assert.deepEqual(describeExpiry({ kind: 'permanent' }, NOW), { text: 'Permanent', tone: 'normal' });
    assert.deepEqual(describeExpiry({ kind: 'invalid' }, NOW), { text: 'N/A', tone: 'muted' });
  });

  test('grace period counts down in yellow, then is over in red', () => {
    assert.deepEqual(describeExpiry({ kind: 'grace', endsAt: after(2 * D + 3 * H + 4 * M + 5 * S) }, NOW), {
      text: '2d 3h 4m left in grace period',
      tone: 'warning',
    });
    assert.equal(describeExpiry({ kind: 'grace', endsAt: after(59 * S) }, NOW).text, '0d 0h 0m left in grace period');
    assert.deepEqual(describeExpiry({ kind: 'grace', endsAt: NOW }, NOW), {
      text: 'Expired (Grace Period Over)',
      tone: 'danger',
    });
  });

  test('works end to end from the profile text', () => {
    // A day-only grace end counts to the start of that UTC day, never past the scheduler's instant.
    const utc = new Date(Date.UTC(2026, 10, 22, 23, 0, 0));
    assert.equal(
      describeExpiry(parseExpiry('Grace period ends 24/11/2026'), utc).text,
      '1d 1h 0m left in grace period',
    );
    const now = new Date(2026, 10, 22, 23, 0, 0);
    assert.equal(describeExpiry(parseExpiry('22-11-2026, 23.30.15'), now).text, '30m 15s remaining');
    assert.equal(describeExpiry(parseExpiry('permanent'), now).text, 'Permanent');
  });
});

describe('describeBanCountdown', () => {
  test('no end date is a permanent ban', () => {
    assert.equal(describeBanCountdown(null, NOW), 'Permanent ban');
    assert.equal(describeBanCountdown('', NOW), 'Permanent ban');
  });

  test('days, hours and minutes remaining', () => {
    assert.equal(describeBanCountdown(after(D + 2 * H + 3 * M + 59 * S).toISOString(), NOW), '1d 2h 3m remaining');
    assert.equal(describeBanCountdown(after(30 * S).toISOString(), NOW), '0d 0h 0m remaining');
  });

  test('an ended ban asks to log in again', () => {
    const text = 'Your ban has expired. Please log in again.';
    assert.equal(describeBanCountdown(NOW.toISOString(), NOW), text);
    assert.equal(describeBanCountdown(after(-H).toISOString(), NOW), text);
  });

  test('unreadable dates are N/A', () => assert.equal(describeBanCountdown('soon', NOW), 'N/A'));
});

describe('describeServerTime (exact instants of the profile)', () => {
  const timed = (expiresIn: number) => ({
    permanent: false,
    expiresAt: after(expiresIn).toISOString(),
    graceEndsAt: after(expiresIn + 3 * D).toISOString(),
    pendingMs: 0,
  });

  test('the grace countdown never shows more time than the scheduler allows', () => {
    // Deletion 2d 23h away: the day-only text used to count to the end of that day ('3d 9h 58m').
    const time = timed(-3 * D + 2 * D + 23 * H);
    assert.equal(serverTimePhase(time, NOW), 'grace');
    assert.deepEqual(describeServerTime(time, NOW), { text: '2d 23h 0m left in grace period', tone: 'warning' });
    assert.equal(describeServerTime(timed(-3 * D + 59 * S), NOW).text, '0d 0h 0m left in grace period');
  });

  test('running, then over at the very instants the api gives', () => {
    assert.equal(describeServerTime(timed(2 * D + 5 * H), NOW).text, '2d 5h remaining');
    assert.equal(serverTimePhase(timed(0), NOW), 'grace', 'time is up at expiresAt');
    assert.deepEqual(describeServerTime(timed(-3 * D), NOW), { text: 'Expired (Grace Period Over)', tone: 'danger' });
  });

  test('without a server (no grace period: graceEndsAt null) time goes from running straight to Expired', () => {
    const noServer = (expiresIn: number) => ({ ...timed(expiresIn), graceEndsAt: null });
    assert.equal(describeServerTime(noServer(H), NOW).text, '1h 0m remaining');
    assert.equal(serverTimePhase(noServer(-H), NOW), 'over');
    assert.deepEqual(describeServerTime(noServer(-H), NOW), { text: 'Expired', tone: 'danger' });
    assert.equal(msUntilNextPhase(noServer(-H), NOW), null, 'nothing left to count down to');
  });

  test('a new account shows the time it will get as pending, not Permanent', () => {
    const pending = { permanent: false, expiresAt: null, graceEndsAt: null, pendingMs: 7 * D };
    assert.equal(serverTimePhase(pending, NOW), 'pending');
    assert.equal(describeServerTime(pending, NOW).text, '7d pending');
    assert.equal(describeServerTime({ ...pending, pendingMs: 36 * H }, NOW).text, '1d 12h pending');
    assert.equal(describeServerTime({ ...pending, pendingMs: 90 * M }, NOW).text, '1h 30m pending');
    assert.equal(
      describeServerTime({ permanent: true, expiresAt: null, graceEndsAt: null, pendingMs: 0 }, NOW).text,
      'Permanent',
    );
  });

  test('the next boundary is the expiry, then the end of grace, then none', () => {
    assert.equal(msUntilNextPhase(timed(5 * M), NOW), 5 * M);
    assert.equal(msUntilNextPhase(timed(-M), NOW), 3 * D - M);
    assert.equal(msUntilNextPhase(timed(-4 * D), NOW), null);
    assert.equal(msUntilNextPhase({ permanent: true, expiresAt: null, graceEndsAt: null, pendingMs: 0 }, NOW), null);
  });
});

describe('msUntilBanEnds', () => {
  test('the time left of a temporary ban, 0 once it has ended', () => {
    assert.equal(msUntilBanEnds(after(90 * S).toISOString(), NOW), 90 * S);
    assert.equal(msUntilBanEnds(after(-5 * S).toISOString(), NOW), 0);
  });
  test('null for a permanent or unreadable ban: nothing to wait for', () => {
    for (const expires of [null, undefined, '', '  ', 'someday']) assert.equal(msUntilBanEnds(expires, NOW), null);
  });
});
