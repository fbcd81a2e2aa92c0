import { authConfigSchema } from '@canopy/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** GET /auth/config: where the login link points (Discord or the development provider). */
export function authConfigQueryOptions() {
  return queryOptions({
    queryKey: ['auth-config'] as const,
    queryFn: ({ signal }) =>
      api.get('/auth/config', {
        auth: false,
        schema: authConfigSchema,
        signal,
        defaultError: (a) => `Could not load the sign-in settings: ${a.statusText}`,
      }),
    // The provider does not change while the page is open.
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** The sign-in configuration. */
export function useAuthConfig() {
  return useQuery(authConfigQueryOptions());
}
