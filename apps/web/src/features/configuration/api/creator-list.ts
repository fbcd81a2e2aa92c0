import { configurationMessages as c, creatorListResponseSchema, messageResponseSchema } from '@canopy/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useToast } from '../../../components/ui/index.ts';
import { api } from '../../../lib/api-client.ts';
import { configServerPath, creatorListKey } from './keys.ts';

const creatorListPath = (userId: string) => `${configServerPath(userId)}/creator-list`;

/** GET /users/{id}/server/creator-list as a query. */
export function creatorListQueryOptions(userId: string) {
  return queryOptions({
    queryKey: creatorListKey(userId),
    queryFn: async ({ signal }) =>
      (
        await api.get(creatorListPath(userId), {
          schema: creatorListResponseSchema,
          signal,
          defaultError: () => c.fetchCreatorListFailed,
        })
      ).creatorList,
  });
}

/** The server's creator list. */
export function useCreatorList(userId: string) {
  return useQuery(creatorListQueryOptions(userId));
}

/** A creator-list change with its toasts; the list is refetched either way. */
function useCreatorMutation<V>(userId: string, run: (v: V) => Promise<{ message: string }>) {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: run,
    onSuccess: (answer) => toast.success(answer.message),
    onError: (error) => toast.error(error.message),
    onSettled: () => queryClient.invalidateQueries({ queryKey: creatorListKey(userId) }),
  });
}

/** POST /users/{id}/server/creator-list {growId}. */
export function useAddCreator(userId: string) {
  return useCreatorMutation(userId, (growId: string) =>
    api.post(
      creatorListPath(userId),
      { growId },
      { schema: messageResponseSchema, defaultError: () => c.addCreatorFailed },
    ),
  );
}

/** DELETE /users/{id}/server/creator-list/{growId}. */
export function useRemoveCreator(userId: string) {
  return useCreatorMutation(userId, (growId: string) =>
    api.delete(`${creatorListPath(userId)}/${encodeURIComponent(growId)}`, {
      schema: messageResponseSchema,
      defaultError: () => c.removeCreatorFailed,
    }),
  );
}
