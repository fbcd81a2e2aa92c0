import type { ServerTime } from '@canopy/contract';
import type { ParsedExpiry } from './date-parse.ts';
import { parseFlexibleDate } from './date-parse.ts';

/** How a countdown should be coloured: grace is warning (yellow), over is danger. */
export type CountdownTone = 'normal' | 'warning' | 'danger' | 'muted';

/** Text and tone of an expiry countdown. */
export interface CountdownView {
  text: string;
  tone: CountdownTone;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Splits a positive duration in ms into whole days, hours, minutes and seconds. */
function split(ms: number) {
  return {
    d: Math.floor(ms / DAY),
    h: Math.floor((ms % DAY) / HOUR),
    m: Math.floor((ms % HOUR) / MINUTE),
    s: Math.floor((ms % MINUTE) / SECOND),
  };
}

/** Describes server time left (panel spec, section 4 "Expiry countdown") at the instant `now`. */
export function describeExpiry(parsed: ParsedExpiry, now: Date): CountdownView {
  switch (parsed.kind) {
    case 'permanent':
      return { text: 'Permanent', tone: 'normal' };
    case 'invalid':
      return { text: 'N/A', tone: 'muted' };
    case 'grace': {
      const left = parsed.endsAt.getTime() - now.getTime();
      if (left <= 0) return { text: 'Expired (Grace Period Over)', tone: 'danger' };
      const { d, h, m } = split(left);
      return { text: `${d}d ${h}h ${m}m left in grace period`, tone: 'warning' };
    }
    case 'date': {
      const left = parsed.at.getTime() - now.getTime();
      if (left <= 0) return { text: 'Expired', tone: 'danger' };
      const { d, h, m, s } = split(left);
      if (left >= DAY) return { text: `${d}d ${h}h remaining`, tone: 'normal' };
      if (left >= HOUR) return { text: `${h}h ${m}m remaining`, tone: 'normal' };
      return { text: `${m}m ${s}s remaining`, tone: 'normal' };
    }
  }
}

/** Where the server time stands: never ends, waits for the first server, runs, in grace, or over. */
export type ServerTimePhase = 'permanent' | 'pending' | 'running' | 'grace' | 'over';

const instant = (iso: string | null) => (iso === null ? Number.NaN : Date.parse(iso));

/** The phase of the server time at `now`, from the api's exact instants (the ones the scheduler acts on). */
export function serverTimePhase(time: ServerTime, now: Date): ServerTimePhase {
  if (time.permanent) return 'permanent';
  const expires = instant(time.expiresAt);
  if (Number.isNaN(expires)) return 'pending';
  if (now.getTime() < expires) return 'running';
  const graceEnds = instant(time.graceEndsAt);
  return !Number.isNaN(graceEnds) && now.getTime() < graceEnds ? 'grace' : 'over';
}

/** Milliseconds until the phase changes next (time runs out, grace ends), or null when it never will. */
export function msUntilNextPhase(time: ServerTime, now: Date): number | null {
  const phase = serverTimePhase(time, now);
  const next = phase === 'running' ? time.expiresAt : phase === 'grace' ? time.graceEndsAt : null;
  return next === null ? null : Math.max(0, instant(next) - now.getTime());
}

/** A duration without its zero tail: '7d', '7d 12h', '5h 30m', '45m'. */
function shortDuration(ms: number): string {
  const { d, h, m } = split(ms);
  if (d > 0) return h > 0 ? `${d}d ${h}h` : `${d}d`;
  if (h > 0) return m > 0 ? `${h}h ${m}m` : `${h}h`;
  return `${m}m`;
}

/**
 * The server time countdown (panel spec, section 4) from the exact instants. Remaining time is rounded
 * down, so the panel never shows more time than the scheduler allows. Time waiting for the first
 * server reads '{duration} pending'.
 */
export function describeServerTime(time: ServerTime, now: Date): CountdownView {
  switch (serverTimePhase(time, now)) {
    case 'permanent':
      return { text: 'Permanent', tone: 'normal' };
    case 'pending':
      return { text: `${shortDuration(time.pendingMs)} pending`, tone: 'normal' };
    case 'running':
      return describeExpiry({ kind: 'date', at: new Date(instant(time.expiresAt)) }, now);
    case 'grace':
      return describeExpiry({ kind: 'grace', endsAt: new Date(instant(time.graceEndsAt)) }, now);
    case 'over':
      return { text: time.graceEndsAt === null ? 'Expired' : 'Expired (Grace Period Over)', tone: 'danger' };
  }
}

/**
 * Describes a ban's remaining time: 'Permanent ban' when it has no end (null or empty),
 * '{d}d {h}h {m}m remaining', or the log-in-again text once it has ended. 'N/A' when unreadable.
 */
export function describeBanCountdown(expiresIso: string | null | undefined, now: Date): string {
  if (expiresIso === null || expiresIso === undefined || expiresIso.trim() === '') return 'Permanent ban';
  const expires = parseFlexibleDate(expiresIso);
  if (!expires) return 'N/A';
  const left = expires.getTime() - now.getTime();
  if (left <= 0) return 'Your ban has expired. Please log in again.';
  const { d, h, m } = split(left);
  return `${d}d ${h}h ${m}m remaining`;
}

/**
 * Milliseconds until a ban ends (at least 0 once it has), or null for a permanent or unreadable one: the
 * panel refetches the profile then, which unlocks it without a reload.
 */
export function msUntilBanEnds(expiresIso: string | null | undefined, now: Date): number | null {
  if (expiresIso === null || expiresIso === undefined || expiresIso.trim() === '') return null;
  const expires = parseFlexibleDate(expiresIso);
  return expires ? Math.max(0, expires.getTime() - now.getTime()) : null;
}
