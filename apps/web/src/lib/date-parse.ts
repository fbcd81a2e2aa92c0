/** Result of reading a user's `estimatedExpiry` text (panel spec, sections 3 and 5). */
export type ParsedExpiry =
  | { kind: 'permanent' }
  | { kind: 'date'; at: Date }
  | { kind: 'grace'; endsAt: Date }
  | { kind: 'invalid' };

// Day first, always: we are an en-GB product, and the engine's own parser would read
// '01/02/2026' as the 2nd of January. Separators '-', '/' or '.'; optional time 'hh.mm.ss' or 'hh:mm:ss'.
const DAY_FIRST = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})(?:,?\s+(\d{1,2})[.:](\d{2})(?:[.:](\d{2}))?)?$/;
const GRACE = /^grace period ends\s+(.+)$/i;

/** Builds a local-time Date, or null when a component is out of range (e.g. 31-02-2026). */
function localDate(y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0): Date | null {
  const date = new Date(y, mo - 1, d, h, mi, s, ms);
  const exact =
    date.getFullYear() === y &&
    date.getMonth() === mo - 1 &&
    date.getDate() === d &&
    date.getHours() === h &&
    date.getMinutes() === mi &&
    date.getSeconds() === s;
  return exact ? date : null;
}

/**
 * Parses 'day-month-year, hh.mm.ss' (local time; '/' or '.' also accepted, time optional)
 * or any standard date string the engine understands (ISO 8601, RFC 2822). Null when unreadable.
 */
export function parseFlexibleDate(text: string | null | undefined): Date | null {
  const trimmed = text?.trim() ?? '';
  if (trimmed === '') return null;
  const m = DAY_FIRST.exec(trimmed);
  if (m) {
    const [d, mo, y, h, mi, s] = m.slice(1).map((part) => (part === undefined ? 0 : Number(part)));
    return localDate(y ?? 0, mo ?? 0, d ?? 0, h, mi, s);
  }
  const date = new Date(trimmed);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * Reads the expiry text of a profile. Empty or containing 'permanent' means permanent.
 * 'Grace period ends d/m/y' carries only a day (the api writes it in UTC), so the grace period is
 * taken to end at the start of that UTC day: the countdown never shows more time than the scheduler
 * allows. The profile's serverTime carries the exact instant; this is the fallback for the text alone.
 */
export function parseExpiry(text: string | null | undefined): ParsedExpiry {
  const trimmed = text?.trim() ?? '';
  if (trimmed === '' || /permanent/i.test(trimmed)) return { kind: 'permanent' };
  const grace = GRACE.exec(trimmed);
  if (grace) {
    const rest = grace[1] ?? '';
    const day = DAY_FIRST.exec(rest);
    if (day && day[4] === undefined) {
      // Validated as a calendar day first (31/02 is invalid), then placed at UTC midnight.
      if (!localDate(Number(day[3]), Number(day[2]), Number(day[1]))) return { kind: 'invalid' };
      return { kind: 'grace', endsAt: new Date(Date.UTC(Number(day[3]), Number(day[2]) - 1, Number(day[1]))) };
    }
    const endsAt = parseFlexibleDate(rest);
    return endsAt ? { kind: 'grace', endsAt } : { kind: 'invalid' };
  }
  const at = parseFlexibleDate(trimmed);
  return at ? { kind: 'date', at } : { kind: 'invalid' };
}
