import { setupGuideMessages, setupGuideSchema, setupPaths } from '@canopy/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** GET /setup-guide: the game IP, the hosts lines and the absolute tunnel and Surge URLs. */
export function setupGuideQueryOptions() {
  return queryOptions({
    queryKey: ['setup-guide'],
    queryFn: ({ signal }) =>
      api.get(setupPaths.guide, {
        schema: setupGuideSchema,
        signal,
        defaultError: () => setupGuideMessages.fetchFailed,
      }),
    // Changes only when the operator changes the game address or the public URL.
    staleTime: 5 * 60_000,
  });
}

/** The data the Setup Guide's copy buttons copy. */
export function useSetupGuide() {
  return useQuery(setupGuideQueryOptions());
}
