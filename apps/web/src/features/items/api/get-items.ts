import { itemMessages, itemsPageSchema } from '@canopy/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, api } from '../../../lib/api-client.ts';
import { type ItemFilters, itemsPath } from '../item-filters.ts';

/** GET /items for the given filters and page; the item database changes rarely, so answers stay fresh a minute. */
export function itemsQueryOptions(filters: ItemFilters, page: number) {
  const path = itemsPath(filters, page);
  return queryOptions({
    queryKey: ['items', path],
    queryFn: ({ signal }) =>
      api
        .get(path, { schema: itemsPageSchema, signal, defaultError: () => itemMessages.fetchFailed })
        .catch((error: unknown) => {
          // The api's own error text when it gave one; the spec's default for a network failure.
          throw error instanceof ApiError && error.code === 'network' ? new Error(itemMessages.fetchFailed) : error;
        }),
    staleTime: 60_000,
    // The grid keeps showing the last page while the next one loads, instead of flashing a skeleton.
    placeholderData: keepPreviousData,
  });
}

/** A page of the item search. */
export function useItems(filters: ItemFilters, page: number) {
  return useQuery(itemsQueryOptions(filters, page));
}
