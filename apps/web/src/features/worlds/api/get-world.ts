import { serverPageMessages, worldSchema } from '@canopy/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { worldKey, worldPath } from './keys.ts';

/** GET /users/{id}/server/worlds/{name}: the whole world. */
export function fetchWorld(userId: string, name: string, signal?: AbortSignal) {
  return api.get(worldPath(userId, name), {
    schema: worldSchema,
    signal,
    defaultError: () => serverPageMessages.fetchWorldFailed,
  });
}

/** One world for the editor: always fetched fresh, and not refetched under an open draft. */
export function worldQueryOptions(userId: string, name: string) {
  return queryOptions({
    queryKey: worldKey(userId, name),
    queryFn: ({ signal }) => fetchWorld(userId, name, signal),
    staleTime: 0,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });
}

/** The world being edited. */
export function useWorld(userId: string, name: string) {
  return useQuery(worldQueryOptions(userId, name));
}
