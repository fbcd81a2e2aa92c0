import type { AdminPage } from '@canopy/contract';
import { type Dispatch, type SetStateAction, useEffect, useState } from 'react';
import { useDebouncedValue } from '../../../lib/use-debounced-value.ts';
import { totalPages } from './admin-list.ts';

/** Typing pauses this long before an admin list is searched on the server (one query per pause, not per key). */
export const ADMIN_SEARCH_DEBOUNCE_MS = 300;

/**
 * The search box and page of a searched admin list: `input` is what the box shows, `search` the settled text
 * sent to the api. A new search starts on page 1: the page is remembered with the search it belongs to.
 */
export function useAdminSearch() {
  const [input, setInput] = useState('');
  const search = useDebouncedValue(input, ADMIN_SEARCH_DEBOUNCE_MS);
  const [page, setPage] = useState(1);
  const [pageSearch, setPageSearch] = useState(search);
  if (pageSearch !== search) {
    setPageSearch(search);
    setPage(1);
  }
  return { input, setInput, search, page, setPage };
}

/**
 * The list's page count, stepping back to the last page that exists when a write (a delete, a removal) empties
 * the page on screen: otherwise the admin is left on an empty page with no pager.
 */
export function useClampedPage(
  page: number,
  setPage: Dispatch<SetStateAction<number>>,
  data: Pick<AdminPage<unknown>, 'total' | 'pageSize'> | undefined,
): number {
  const pages = totalPages(data);
  useEffect(() => {
    if (data && page > pages) setPage(pages);
  }, [data, page, pages, setPage]);
  return pages;
}
