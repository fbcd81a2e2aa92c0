import { STORAGE_DANGER_PERCENT, STORAGE_WARNING_PERCENT } from '@canopy/contract';

/** Colour band of a usage bar. */
export type UsageLevel = 'normal' | 'warning' | 'danger';

/** Share of `limit` taken by `used`, clamped to 0..100. A zero or negative limit counts as full once anything is used. */
export function usagePercent(used: number, limit: number): number {
  const u = Number.isFinite(used) ? Math.max(used, 0) : 0;
  if (!(limit > 0)) return u > 0 ? 100 : 0;
  return Math.min((u / limit) * 100, 100);
}

/** Colour band: normal up to STORAGE_WARNING_PERCENT, warning above it, danger above STORAGE_DANGER_PERCENT. */
export function usageLevel(percent: number): UsageLevel {
  if (percent > STORAGE_DANGER_PERCENT) return 'danger';
  if (percent > STORAGE_WARNING_PERCENT) return 'warning';
  return 'normal';
}

/** Storage is full (and blocks starting the server) when used is at or above the limit. */
export function isStorageFull(used: number, limit: number): boolean {
  return used >= limit;
}
