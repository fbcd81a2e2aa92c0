import { ADMIN_PAGE_SIZE, type AdminPage } from '@canopy/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, type Schema } from '../../../lib/api-client.ts';

/** Query keys of the admin lists: `['admin', list, ...params]`, so a mutation can refetch one list by its prefix. */
export const adminKeys = {
  all: ['admin'] as const,
  list: (list: string) => ['admin', list] as const,
};

export interface AdminListParams<T> {
  /** Names the list in the query key ('users', 'servers', ...). */
  list: string;
  /** The api path, e.g. '/admin/all-users'. */
  path: string;
  schema: Schema<AdminPage<T>>;
  page: number;
  /** Server-side search text; empty for none. */
  search?: string;
  /** More query parameters of the list (a type, a status, a date range); empty values are left out. */
  filters?: Readonly<Record<string, string>>;
  /** The spec's fallback text when the answer carries no 'error' ('Failed to fetch users.'). */
  fallback: string;
  /** Re-read the page every so many ms while this returns a number (given the page shown), not when false. */
  refetchInterval?: (data: AdminPage<T> | undefined) => number | false;
}

/** The filters that are set, trimmed, in a stable order (for the url and the query key). */
export function setFilters(filters: Readonly<Record<string, string>> = {}): [string, string][] {
  return Object.entries(filters)
    .map(([key, value]): [string, string] => [key, value.trim()])
    .filter(([, value]) => value !== '')
    .sort(([a], [b]) => a.localeCompare(b));
}

/** `path?page=&search=&filter=` as the api reads it (`page` left out when null: the CSV export has none). */
export function adminListUrl(
  path: string,
  page: number | null,
  search = '',
  filters: Readonly<Record<string, string>> = {},
): string {
  const query = new URLSearchParams(page === null ? {} : { page: String(page) });
  const text = search.trim();
  if (text) query.set('search', text);
  for (const [key, value] of setFilters(filters)) query.set(key, value);
  const qs = query.toString();
  return qs ? `${path}?${qs}` : path;
}

/** Total pages of a list answer (at least 1, so the pager has a page to stand on). */
export function totalPages(page: Pick<AdminPage<unknown>, 'total' | 'pageSize'> | undefined): number {
  if (!page) return 1;
  return Math.max(1, Math.ceil(page.total / (page.pageSize || ADMIN_PAGE_SIZE)));
}

/**
 * One page of an admin list, searched and paged on the server. The previous page stays on screen while the next
 * loads, so paging does not flash a skeleton.
 */
export function useAdminList<T>({
  list,
  path,
  schema,
  page,
  search = '',
  filters,
  fallback,
  refetchInterval,
}: AdminListParams<T>) {
  return useQuery({
    queryKey: [...adminKeys.list(list), page, search.trim(), ...setFilters(filters).flat()],
    queryFn: ({ signal }) =>
      api.get(adminListUrl(path, page, search, filters), { schema, signal, defaultError: () => fallback }),
    placeholderData: keepPreviousData,
    refetchInterval: refetchInterval && ((query) => refetchInterval(query.state.data)),
  });
}
