/** One value per span of [from, to] (a null where nothing was sampled), for a chart that shows gaps as gaps. */
export function fillSpans<T extends { at: number }>(
  points: readonly T[],
  window: { from: number; to: number; stepMs: number },
  value: (point: T) => number | null,
): { at: number; value: number | null }[] {
  const byAt = new Map(points.map((p) => [p.at, p]));
  const out: { at: number; value: number | null }[] = [];
  const last = window.to - (window.to % window.stepMs);
  for (let at = window.from; at <= last; at += window.stepMs) {
    const p = byAt.get(at);
    out.push({ at, value: p ? value(p) : null });
  }
  return out;
}
