import { type AdminStats, adminStatFigures } from '@canopy/contract';

const countFormat = new Intl.NumberFormat();

/** A count in the reader's locale (12,345 or 12.345). */
export function formatCount(value: number): string {
  return countFormat.format(value);
}

/** The dashboard's four figures in display order, each with its label and formatted value. */
export function statFigures(stats: AdminStats): { key: keyof AdminStats; label: string; value: string }[] {
  return adminStatFigures.map(({ key, label }) => ({ key, label, value: formatCount(stats[key]) }));
}
