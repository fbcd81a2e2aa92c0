import { playerSchema, serverPageMessages } from '@canopy/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { playerKey, playerPath } from './keys.ts';

/** One player for the editor (GET /users/{id}/server/players/{name}): fetched fresh, not refetched under a draft. */
export function playerQueryOptions(userId: string, name: string) {
  return queryOptions({
    queryKey: playerKey(userId, name),
    queryFn: ({ signal }) =>
      api.get(playerPath(userId, name), {
        schema: playerSchema,
        signal,
        defaultError: () => serverPageMessages.fetchPlayerFailed,
      }),
    staleTime: 0,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });
}

/** The player being edited. */
export function usePlayer(userId: string, name: string) {
  return useQuery(playerQueryOptions(userId, name));
}
