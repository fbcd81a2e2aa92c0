import { serverPageMessages, worldListResponseSchema } from '@canopy/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { worldsKey, worldsPath } from './keys.ts';

/** GET /users/{id}/server/worlds as a query; refetched whenever the page mounts (the server may have restarted). */
export function worldsQueryOptions(userId: string) {
  return queryOptions({
    queryKey: worldsKey(userId),
    queryFn: ({ signal }) =>
      api.get(worldsPath(userId), {
        schema: worldListResponseSchema,
        signal,
        defaultError: (a) => serverPageMessages.fetchWorldsFailed(a.status),
      }),
    staleTime: 0,
  });
}

/** The user's server's worlds. */
export function useWorlds(userId: string) {
  return useQuery(worldsQueryOptions(userId));
}
