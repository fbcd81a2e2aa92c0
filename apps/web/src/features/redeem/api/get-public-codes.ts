import { publicRedeemCodeListSchema, redeemMessages } from '@canopy/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { publicCodesKey, redeemBase } from './keys.ts';

/** GET /users/{id}/public-redeem-codes as a query. */
export function publicCodesQueryOptions(userId: string) {
  return queryOptions({
    queryKey: publicCodesKey(userId),
    queryFn: ({ signal }) =>
      api.get(`${redeemBase(userId)}/public-redeem-codes`, {
        schema: publicRedeemCodeListSchema,
        signal,
        defaultError: () => redeemMessages.fetchFailed,
      }),
  });
}

/** The public codes with this user's status for each. */
export function usePublicCodes(userId: string) {
  return useQuery(publicCodesQueryOptions(userId));
}
