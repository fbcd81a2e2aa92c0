import { playerListResponseSchema, serverPageMessages } from '@canopy/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { playersKey, playersPath } from './keys.ts';

/** GET /users/{id}/server/players as a query; the filters apply in the page. */
export function playersQueryOptions(userId: string) {
  return queryOptions({
    queryKey: playersKey(userId),
    queryFn: ({ signal }) =>
      api.get(playersPath(userId), {
        schema: playerListResponseSchema,
        signal,
        defaultError: (a) => serverPageMessages.fetchPlayersFailed(a.status),
      }),
    staleTime: 0,
  });
}

/** The user's server's players. */
export function usePlayers(userId: string) {
  return useQuery(playersQueryOptions(userId));
}
