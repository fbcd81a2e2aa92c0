import { useState } from 'react';
import { useDebouncedValue } from '../../../lib/use-debounced-value.ts';
import { ADMIN_SEARCH_DEBOUNCE_MS, useAdminSearch } from './admin-list-state.ts';

/**
 * The search box, the filters and the page of a filtered admin list (Activity Logs, Feedback, Ban Logs). Like a
 * new search, a changed filter starts on page 1: the page is remembered with the filters it belongs to.
 */
export function useAdminFilters<F extends Record<string, string>>(initial: F) {
  const searchState = useAdminSearch();
  const [filters, setFilters] = useState<F>(initial);
  // Typed filters (an action, a date) settle like the search box: one query per pause, not per key.
  const applied = useDebouncedValue(filters, ADMIN_SEARCH_DEBOUNCE_MS);
  const [pageFilters, setPageFilters] = useState(applied);
  if (pageFilters !== applied) {
    setPageFilters(applied);
    searchState.setPage(1);
  }
  const setFilter = (key: keyof F, value: string) => setFilters((current) => ({ ...current, [key]: value }));
  const active = searchState.input.trim() !== '' || Object.values(filters).some((v) => v !== '');
  const clear = () => {
    setFilters(initial);
    searchState.setInput('');
  };
  return { ...searchState, filters, applied, setFilter, active, clear };
}
