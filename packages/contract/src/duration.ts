/**
 * The admin panel's durations (admin document, section 5): a whole number followed by d, w, h, m or s
 * ('30d', '2w', '12h', '30m', '45s'), or the word 'perm'.
 */
export const DURATION_PATTERN = /^(\d{1,6})([dwhms])$/;

const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;

/** Longest finite duration accepted: ten years (a longer ban or plan is 'perm'). */
export const DURATION_MAX_MS = 3650 * 86_400_000;

/**
 * Milliseconds of a duration, null for 'perm', or undefined when the text is not a duration (a caller turns
 * that into its own message). Surrounding spaces and letter case are ignored; zero is not a duration.
 */
export function parseDuration(text: string): number | null | undefined {
  const t = text.trim().toLowerCase();
  if (t === 'perm') return null;
  const m = DURATION_PATTERN.exec(t);
  if (!m) return undefined;
  const ms = Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS];
  return ms > 0 && ms <= DURATION_MAX_MS ? ms : undefined;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/**
 * A moment as readers of api texts (toasts, activity log details) see it, e.g. '22 Dec 2026, 22:16 UTC': the api
 * does not know the reader's time zone, so it says UTC rather than print a raw ISO timestamp.
 */
export function utcDateTimeText(when: string | number): string {
  const d = new Date(when);
  if (Number.isNaN(d.getTime())) return String(when);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;
}
