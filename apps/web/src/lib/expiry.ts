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
