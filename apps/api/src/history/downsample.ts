import { type HistoryRange, historyRangeMs, historySteps } from '@canopy/contract';

// The shape of the history (ADR 0050): 1-minute samples, rolled up into 15-minute spans, themselves rolled up into
// 1-hour spans. Each resolution is kept a little longer than the chart that shows it, so that the next rollup
// still finds every row of the span it reads, then pruned: a server holds at most `maxRowsPerServer` rows.

export const MINUTE = 60_000;
export const QUARTER = 15 * MINUTE;
export const HOUR = 60 * MINUTE;

/** One resolution: its step, how long its rows are kept, and the finer one it is rolled up from. */
export interface Resolution {
  stepMs: number;
  keepMs: number;
  from?: number;
}

/**
 * The resolutions, finest first. The 1-minute rows outlive the hour chart by a 15-minute span and the rollup's
 * grace, the 15-minute rows the day chart by an hour, so a span is complete when it is rolled up.
 */
export const resolutions: readonly Resolution[] = [
  { stepMs: MINUTE, keepMs: historyRangeMs.hour + QUARTER + 5 * MINUTE },
  { stepMs: QUARTER, keepMs: historyRangeMs.day + HOUR + 5 * MINUTE, from: MINUTE },
  { stepMs: HOUR, keepMs: historyRangeMs.week + HOUR, from: QUARTER },
];

/** A span is rolled up this long after it ends, so that a sample taken late in it (another replica's) is in. */
export const ROLLUP_GRACE_MS = 2 * MINUTE;

/** The most rows one server (or the platform) can hold: each resolution's kept span in steps, and the one begun. */
export const maxRowsPerServer = resolutions.reduce((n, r) => n + Math.ceil(r.keepMs / r.stepMs) + 1, 0);

/** The start of the span of width `stepMs` holding `at`. */
export const spanOf = (at: number, stepMs: number) => at - (at % stepMs);

/**
 * The coarse spans a rollup pass may have to write at `now`: every span that ended at least ROLLUP_GRACE_MS ago
 * and whose finer rows are all still kept (older ones were rolled up by an earlier pass, or have nothing left to
 * roll). Newest first: a pass after a short pause writes the span the charts miss most first.
 */
export function spansToRoll(now: number, r: Resolution): number[] {
  const source = resolutions.find((s) => s.stepMs === r.from);
  if (!source) return [];
  const oldest = spanOf(now - source.keepMs, r.stepMs) + r.stepMs;
  const spans: number[] = [];
  for (let at = spanOf(now - ROLLUP_GRACE_MS, r.stepMs) - r.stepMs; at >= oldest; at -= r.stepMs) spans.push(at);
  return spans;
}

/** Rows of a resolution older than this are pruned at `now`. */
export const pruneBefore = (now: number, r: Resolution) => now - r.keepMs;

/** The window and step of a chart's range at `now`: [from, to), from aligned on the step. */
export function rangeWindow(range: HistoryRange, now: number) {
  const stepMs = historySteps[range];
  return { stepMs, from: spanOf(now - historyRangeMs[range], stepMs) + stepMs, to: now };
}

/** A stored (or to be stored) point: the peak players and memory, and CPU averaged over `samples`. */
export interface Sample {
  at: number;
  samples: number;
  players: number;
  cpu: number | null;
  memory: number | null;
}

/**
 * Rolls finer points up into spans of `stepMs`, as the rollup's SQL does: players and memory are the span's peak,
 * CPU the average weighted by the samples that measured it. Used for the span a chart shows before the
 * scheduler has rolled it up (the current one), and by the tests as the rule's statement.
 */
export function rollUp(points: readonly Sample[], stepMs: number): Sample[] {
  const spans = new Map<number, Sample & { cpuSamples: number; cpuSum: number }>();
  for (const p of points) {
    const at = spanOf(p.at, stepMs);
    let s = spans.get(at);
    if (!s) {
      s = { at, samples: 0, players: 0, cpu: null, memory: null, cpuSamples: 0, cpuSum: 0 };
      spans.set(at, s);
    }
    s.samples += p.samples;
    s.players = Math.max(s.players, p.players);
    if (p.memory !== null) s.memory = Math.max(s.memory ?? 0, p.memory);
    if (p.cpu !== null) {
      s.cpuSamples += p.samples;
      s.cpuSum += p.cpu * p.samples;
      s.cpu = s.cpuSum / s.cpuSamples;
    }
  }
  return [...spans.values()]
    .sort((a, b) => a.at - b.at)
    .map(({ at, samples, players, cpu, memory }) => ({ at, samples, players, cpu, memory }));
}
