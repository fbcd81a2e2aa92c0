/** When a schedule runs: a wall-clock time (minutes after midnight) on every day or on one weekday, in a time zone. */
export interface ScheduleTime {
  minute: number;
  /** 0 = Sunday … 6 = Saturday; null: every day. */
  weekday: number | null;
  timeZone: string;
}

const DAY_MS = 86_400_000;
// One formatter per zone: building one costs far more than formatting, and there are a few hundred zones at most.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string) {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The wall clock in `timeZone` at instant `t`, as the UTC instant with the same fields (seconds dropped). */
function wallClock(t: number, timeZone: string): number {
  const n = { year: 0, month: 0, day: 0, hour: 0, minute: 0 };
  for (const p of formatter(timeZone).formatToParts(t)) if (p.type in n) n[p.type as keyof typeof n] = Number(p.value);
  return Date.UTC(n.year, n.month - 1, n.day, n.hour, n.minute);
}

/** How far the zone's wall clock is ahead of UTC at `t` (whole minutes: `t` is a whole minute here). */
const offsetAt = (t: number, timeZone: string) => wallClock(t, timeZone) - t;

/**
 * The instant at which the wall clock in `timeZone` reads `wall` (a UTC instant standing for those fields). A time
 * that occurs twice (clocks go back) is its first occurrence; a time that does not occur (clocks go forward) is
 * shifted forward by the gap, so 02:30 on a spring-forward night in Berlin runs at 03:30.
 */
export function fromWallClock(wall: number, timeZone: string): number {
  // Offsets half a day either side: no zone changes its offset twice within a day.
  const before = offsetAt(wall - DAY_MS / 2, timeZone);
  const after = offsetAt(wall + DAY_MS / 2, timeZone);
  const valid = [wall - before, wall - after].filter((t) => wallClock(t, timeZone) === wall);
  if (valid.length > 0) return Math.min(...valid);
  return wall - before;
}

/** The first instant strictly after `after` at which the schedule is due (DST-aware, in its own zone). */
export function nextRunAfter(after: number, s: ScheduleTime): number {
  const today = wallClock(after, s.timeZone);
  const midnight = today - (today % DAY_MS);
  // Eight days: a weekly time whose weekday is today but whose minute has passed comes back in seven.
  for (let i = 0; i <= 8; i++) {
    const day = midnight + i * DAY_MS;
    if (s.weekday !== null && new Date(day).getUTCDay() !== s.weekday) continue;
    const at = fromWallClock(day + s.minute * 60_000, s.timeZone);
    if (at > after) return at;
  }
  throw new Error(`no next run for ${JSON.stringify(s)}`);
}

/** "04:30" → 270. */
export const minuteOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
/** 270 → "04:30". */
export const timeOf = (minute: number) =>
  `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
