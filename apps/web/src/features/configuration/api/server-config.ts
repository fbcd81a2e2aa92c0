import { configurationMessages as c, messageResponseSchema, profileResponseSchema } from '@canopy/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useToast } from '../../../components/ui/index.ts';
import { api } from '../../../lib/api-client.ts';
import { profileQueryKey } from '../../../lib/profile-query.ts';
import { configServerPath, serverConfigKey } from './keys.ts';

/**
 * The server config as the spec reads it: `server.config.autofarmDelay` of GET /users/{id}/profile,
 * fetched here on its own so that a failure is the page's toast, not the shell's error page.
 */
export function serverConfigQueryOptions(userId: string) {
  return queryOptions({
    queryKey: serverConfigKey(userId),
    queryFn: async ({ signal }) => {
      const answer = await api.get(`/users/${encodeURIComponent(userId)}/profile`, {
        schema: profileResponseSchema,
        signal,
        defaultError: () => c.fetchServerConfigFailed,
      });
      if (!answer.profile.server) throw new Error(c.fetchServerConfigFailed);
      return answer.profile.server.config;
    },
  });
}

/** The server's live config (autofarm delay). */
export function useServerConfig(userId: string) {
  return useQuery(serverConfigQueryOptions(userId));
}

/** POST /users/{id}/server/farm-delay {amount}, with its toasts. */
export function useSetFarmDelay(userId: string) {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: (amount: number) =>
      api.post(
        `${configServerPath(userId)}/farm-delay`,
        { amount },
        { schema: messageResponseSchema, defaultError: () => c.saveFailed },
      ),
    onSuccess: (answer) => toast.success(answer.message),
    onError: (error) => toast.error(error.message),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: serverConfigKey(userId) }),
        queryClient.invalidateQueries({ queryKey: profileQueryKey(userId) }),
      ]),
  });
}
