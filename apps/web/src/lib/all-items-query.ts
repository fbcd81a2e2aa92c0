import { allItemsResponseSchema, serverPageMessages } from '@canopy/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api-client.ts';

/** Query key of the item database (names of every item id). */
export const allItemsQueryKey = ['all-items'] as const;

/** GET /all-items: the item database does not change while the panel is open, so it is fetched once. */
export function allItemsQueryOptions() {
  return queryOptions({
    queryKey: allItemsQueryKey,
    queryFn: async ({ signal }) => {
      const answer = await api.get('/all-items', {
        schema: allItemsResponseSchema,
        signal,
        defaultError: () => serverPageMessages.fetchItemDatabaseFailed,
      });
      return answer.items;
    },
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** The item database. */
export function useAllItems() {
  return useQuery(allItemsQueryOptions());
}
