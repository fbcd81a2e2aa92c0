import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isTimeZone, scheduleInputSchema } from '@canopy/contract';
import { minuteOf, nextRunAfter, timeOf } from '../src/schedules/next-run.ts';

const at = (iso: string) => Date.parse(iso);
const next = (after: string, time: string, timeZone: string, weekday: number | null = null) =>
  new Date(nextRunAfter(at(after), { minute: minuteOf(time), weekday, timeZone })).toISOString();

describe('schedule next run', () => {
  it('is today when the time is still ahead, tomorrow once it passed, never the instant itself', () => {
    assert.equal(next('2026-06-01T10:00:00Z', '12:15', 'UTC'), '2026-06-01T12:15:00.000Z');
    assert.equal(next('2026-06-01T12:16:00Z', '12:15', 'UTC'), '2026-06-02T12:15:00.000Z');
    assert.equal(next('2026-06-01T12:15:00Z', '12:15', 'UTC'), '2026-06-02T12:15:00.000Z');
  });

  it("counts the wall clock in the schedule's zone, whatever day it is in UTC", () => {
    // 23:30 UTC on 1 June is already 06:30 on 2 June in Jakarta (UTC+7): 04:00 there is next on 3 June.
    assert.equal(next('2026-06-01T23:30:00Z', '04:00', 'Asia/Jakarta'), '2026-06-02T21:00:00.000Z');
    assert.equal(next('2026-06-01T12:00:00Z', '20:00', 'America/Los_Angeles'), '2026-06-02T03:00:00.000Z');
    assert.equal(next('2026-06-01T12:00:00Z', '00:00', 'Asia/Kolkata'), '2026-06-01T18:30:00.000Z');
  });

  it('keeps the wall-clock time across daylight saving changes (Europe/Berlin)', () => {
    // Summer time, UTC+2, then winter time, UTC+1: 04:30 local is 02:30 then 03:30 UTC.
    assert.equal(next('2026-10-24T12:00:00Z', '04:30', 'Europe/Berlin'), '2026-10-25T03:30:00.000Z');
    assert.equal(next('2026-10-23T12:00:00Z', '04:30', 'Europe/Berlin'), '2026-10-24T02:30:00.000Z');
    assert.equal(next('2026-03-28T12:00:00Z', '04:30', 'Europe/Berlin'), '2026-03-29T02:30:00.000Z');
  });

  it('runs a time skipped by spring-forward after the gap, and a repeated time once', () => {
    // 02:30 does not exist in Berlin on 29 March 2026 (02:00 → 03:00): it runs at 03:30 summer time.
    assert.equal(next('2026-03-28T12:00:00Z', '02:30', 'Europe/Berlin'), '2026-03-29T01:30:00.000Z');
    assert.equal(next('2026-03-29T01:30:00Z', '02:30', 'Europe/Berlin'), '2026-03-30T00:30:00.000Z');
    // 01:30 happens twice in New York on 1 November 2026: the first one (EDT) runs, the repeat does not.
    assert.equal(next('2026-10-31T12:00:00Z', '01:30', 'America/New_York'), '2026-11-01T05:30:00.000Z');
    assert.equal(next('2026-11-01T05:30:00Z', '01:30', 'America/New_York'), '2026-11-02T06:30:00.000Z');
  });

  it('runs a weekly schedule on its weekday in its zone', () => {
    // Friday 27 November 2026, 12:00 in Jakarta: Friday 04:00 has passed, so the next is a week on.
    assert.equal(next('2026-11-27T05:00:00Z', '04:00', 'Asia/Jakarta', 5), '2026-12-03T21:00:00.000Z');
    assert.equal(next('2026-11-27T05:00:00Z', '18:00', 'Asia/Jakarta', 5), '2026-11-27T11:00:00.000Z');
    // Sunday in Auckland while it is still Saturday in UTC.
    assert.equal(next('2026-11-27T05:00:00Z', '09:00', 'Pacific/Auckland', 0), '2026-11-28T20:00:00.000Z');
  });

  it('reads and writes HH:MM', () => {
    assert.equal(minuteOf('04:30'), 270);
    assert.equal(timeOf(270), '04:30');
    assert.equal(timeOf(0), '00:00');
    assert.equal(timeOf(1439), '23:59');
  });

  it('accepts IANA zones only, and a broadcast only with a one-line message', () => {
    assert.equal(isTimeZone('Europe/Berlin'), true);
    assert.equal(isTimeZone('Mars/Olympus'), false);
    assert.equal(isTimeZone(''), false);
    const base = { action: 'broadcast', time: '04:00', weekday: null, timeZone: 'UTC' };
    assert.equal(scheduleInputSchema.safeParse({ ...base, message: 'Restart in 5 minutes' }).success, true);
    assert.equal(scheduleInputSchema.safeParse(base).success, false);
    assert.equal(scheduleInputSchema.safeParse({ ...base, message: 'one\nstop' }).success, false);
    assert.equal(scheduleInputSchema.safeParse({ ...base, message: 'x', time: '24:00' }).success, false);
    assert.equal(scheduleInputSchema.safeParse({ ...base, message: 'x', weekday: 7 }).success, false);
  });
});
