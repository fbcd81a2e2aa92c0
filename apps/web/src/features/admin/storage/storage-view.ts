import { STORAGE_BUCKETS, type StorageAnalytics, type StorageConsumer } from '@canopy/contract';

/** One bar of the size distribution chart. */
export interface BucketRow {
  key: string;
  label: string;
  accounts: number;
}

/** One of the top consumers as the chart and the table show them. */
export interface ConsumerRow {
  key: string;
  /** GrowID, else the Discord username (an account can sit in the top 10 before it has a GrowID shown). */
  name: string;
  usedMB: number;
  limitMB: number;
  /** usedMB of limitMB, one decimal; 100 when the limit is zero and something is stored. */
  percent: number;
}

/** The four buckets in the spec's order, with their labels from the contract. */
export function bucketRows(analytics: Pick<StorageAnalytics, 'buckets'>): BucketRow[] {
  return STORAGE_BUCKETS.map(({ key, label }) => ({ key, label, accounts: analytics.buckets[key] }));
}

/** Share of a limit, one decimal, not clamped: an account over its limit reads above 100 %. */
export function percentOf(used: number, limit: number): number {
  if (!(limit > 0)) return used > 0 ? 100 : 0;
  return Math.round((used / limit) * 1000) / 10;
}

/** The top consumers, largest first as the api sends them, named by GrowID or username. */
export function consumerRows(consumers: readonly StorageConsumer[]): ConsumerRow[] {
  return consumers.map((c) => ({
    key: c.discordId,
    name: c.growId || c.discordUsername,
    usedMB: c.usedMB,
    limitMB: c.limitMB,
    percent: percentOf(c.usedMB, c.limitMB),
  }));
}

/** A percent with one decimal ('42.5%'). */
export function formatPercent(percent: number): string {
  return `${percent.toFixed(1)}%`;
}

/** Splits a label into lines of at most `width` characters at spaces (a longer word keeps its own line). */
export function wrapLabel(label: string, width: number): string[] {
  const lines: string[] = [];
  for (const word of label.split(/\s+/).filter(Boolean)) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + 1 + word.length <= width) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}
