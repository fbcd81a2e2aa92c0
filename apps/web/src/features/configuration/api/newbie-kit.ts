import {
  configurationMessages as c,
  configAppliedMessage,
  type NewbieKit,
  newbieKitResponseSchema,
  versionedConfigSaveResponseSchema,
} from '@canopy/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useToast } from '../../../components/ui/index.ts';
import { api } from '../../../lib/api-client.ts';
import { configServerPath, newbieKitKey } from './keys.ts';

const newbieKitPath = (userId: string) => `${configServerPath(userId)}/newbie-kit`;

/** GET /users/{id}/server/newbie-kit as a query: the kit and the version of its file (ADR 0035). */
export function newbieKitQueryOptions(userId: string) {
  return queryOptions({
    queryKey: newbieKitKey(userId),
    queryFn: ({ signal }) =>
      api.get(newbieKitPath(userId), {
        schema: newbieKitResponseSchema,
        signal,
        defaultError: () => c.fetchNewbieKitFailed,
      }),
  });
}

/** The server's newbie kit. */
export function useNewbieKit(userId: string) {
  return useQuery(newbieKitQueryOptions(userId));
}

/**
 * 'Save Changes & Restart Server': PUT the whole kit; the api restarts a running server itself as part of
 * the save (the engine reads the kit at start), so a collaborator with config:manage alone can apply it, and
 * leaves a stopped server stopped. The answer says which; the status updates show the restart.
 */
export function useSaveNewbieKit(userId: string) {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    // Conditional on the version the draft started from: a kit saved by someone else since is a 409.
    mutationFn: ({ kit, version }: { kit: NewbieKit; version: string }) =>
      api.request(newbieKitPath(userId), {
        method: 'PUT',
        body: kit,
        ifMatch: version,
        schema: versionedConfigSaveResponseSchema,
        defaultError: () => c.saveFailed,
      }),
    onSuccess: (answer, { kit }) => {
      // The restart unmounts the tab (busy gate) before onSettled's refetch could run: keep the saved kit in
      // the cache so that the tab comes back with it, not with the kit from before the save.
      queryClient.setQueryData(newbieKitKey(userId), { ...kit, version: answer.version });
      toast.success(answer.message);
      toast.info(configAppliedMessage(answer.applied));
    },
    onError: (error) => toast.error(error.message),
    onSettled: () => queryClient.invalidateQueries({ queryKey: newbieKitKey(userId) }),
  });
}
