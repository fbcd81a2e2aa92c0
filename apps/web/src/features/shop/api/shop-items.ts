import { shopItemsSchema, shopMessages } from '@canopy/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** Query key of the shop listing; per user, since isPurchased is the caller's own. */
export const shopItemsKey = (userId: string) => ['shop-items', userId] as const;

/** GET /shop/items as a query. */
export function shopItemsQueryOptions(userId: string) {
  return queryOptions({
    queryKey: shopItemsKey(userId),
    queryFn: ({ signal }) =>
      api.get('/shop/items', { schema: shopItemsSchema, signal, defaultError: () => shopMessages.fetchFailed }),
  });
}

/** The items on sale, with this user's one_time purchases marked. */
export function useShopItems(userId: string) {
  return useQuery(shopItemsQueryOptions(userId));
}
