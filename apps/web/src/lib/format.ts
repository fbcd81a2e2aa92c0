import { parseFlexibleDate } from './date-parse.ts';

const MB_PER_GB = 1024;
const MB_PER_TB = 1024 * 1024;
/** Limits above this many MB are sentinels for "no limit". */
const UNLIMITED_ABOVE_MB = 1024 * 1024 * 1024;

/**
 * Formats a size given in MB (panel spec, section 5): '0MB', '512MB', '1.5GB', '2.0TB',
 * 'Unlimited' for sentinel limits, 'N/A' for negative or missing values.
 */
export function formatSize(mb: number | null | undefined): string {
  if (mb === null || mb === undefined || Number.isNaN(mb) || mb < 0) return 'N/A';
  if (mb > UNLIMITED_ABOVE_MB) return 'Unlimited';
  if (mb >= MB_PER_TB) return `${(mb / MB_PER_TB).toFixed(1)}TB`;
  if (mb >= MB_PER_GB) return `${(mb / MB_PER_GB).toFixed(1)}GB`;
  // Number() drops a trailing '.0' so whole values read '512MB'.
  return `${Number(mb.toFixed(1))}MB`;
}

const mbFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });

/**
 * An exact size in MB as a number in the reader's locale ('1,234.5'), for places whose heading or unit already
 * says MB (admin tables); `formatSize` scales to GB and TB instead.
 */
export function formatMB(mb: number): string {
  return mbFormat.format(mb);
}

const dateFormat = new Intl.DateTimeFormat('en-GB', { day: '2-digit', month: '2-digit', year: 'numeric' });
const dateTimeFormat = new Intl.DateTimeFormat('en-GB', {
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

function toDate(value: string | number | Date | null | undefined): Date | null {
  if (value === null || value === undefined) return null;
  const date = typeof value === 'string' ? parseFlexibleDate(value) : new Date(value);
  return date && !Number.isNaN(date.getTime()) ? date : null;
}

/** Formats a date as en-GB 'dd/mm/yyyy' in local time; 'N/A' when unreadable. */
export function formatDate(value: string | number | Date | null | undefined): string {
  const date = toDate(value);
  return date ? dateFormat.format(date) : 'N/A';
}

/** Formats a date and time as en-GB 'dd/mm/yyyy, hh:mm:ss' (24 h, local time); 'N/A' when unreadable. */
export function formatDateTime(value: string | number | Date | null | undefined): string {
  const date = toDate(value);
  return date ? dateTimeFormat.format(date) : 'N/A';
}
