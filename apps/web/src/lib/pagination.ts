import { PAGINATION_WINDOW } from '@canopy/contract';

/** One entry of a pagination bar: a page number or a gap marker. */
export type PageItem = number | 'ellipsis-start' | 'ellipsis-end';

/**
 * Page links for a pagination bar: up to PAGINATION_WINDOW numbers around `page` (shifted to
 * stay inside 1..totalPages), plus the first and last page, with an ellipsis wherever at least
 * one page is skipped. Page 10 of 20 gives [1, 'ellipsis-start', 8, 9, 10, 11, 12, 'ellipsis-end', 20].
 */
export function pageWindow(page: number, totalPages: number): PageItem[] {
  const total = Math.floor(totalPages);
  if (!Number.isFinite(total) || total < 1) return [];
  const current = Math.min(Math.max(Math.floor(page) || 1, 1), total);
  const end = Math.min(total, Math.max(current - Math.floor(PAGINATION_WINDOW / 2), 1) + PAGINATION_WINDOW - 1);
  const start = Math.max(1, end - PAGINATION_WINDOW + 1);

  const items: PageItem[] = [];
  if (start > 1) items.push(1);
  if (start > 2) items.push('ellipsis-start');
  for (let n = start; n <= end; n++) items.push(n);
  if (end < total - 1) items.push('ellipsis-end');
  if (end < total) items.push(total);
  return items;
}

/** One page of a list, with the page clamped into 1..totalPages (an empty list has one empty page). */
export interface PageSlice<T> {
  items: T[];
  page: number;
  totalPages: number;
}

/** Cuts page `page` (1-based) of `size` items out of `list`; a page past the end shows the last one. */
export function pageSlice<T>(list: readonly T[], page: number, size: number): PageSlice<T> {
  const totalPages = Math.max(1, Math.ceil(list.length / size));
  const current = Math.min(Math.max(Math.floor(page) || 1, 1), totalPages);
  const start = (current - 1) * size;
  return { items: list.slice(start, start + size), page: current, totalPages };
}
