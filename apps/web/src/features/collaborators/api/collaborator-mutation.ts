import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useToast } from '../../../components/ui/index.ts';
import { collaboratorsKey, collaboratorsPath } from './keys.ts';

/** The path of one collaborator. */
export const collaboratorPath = (userId: string, discordId: string) =>
  `${collaboratorsPath(userId)}/${encodeURIComponent(discordId)}`;

/**
 * A collaborator change with the page's toasts: the api's {message} on success, its error (or the
 * spec's fallback) on failure; the list and the id checks are refetched either way.
 */
export function useCollaboratorMutation<V>(userId: string, run: (variables: V) => Promise<{ message: string }>) {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: run,
    onSuccess: (answer) => toast.success(answer.message),
    onError: (error) => toast.error(error.message),
    onSettled: () => queryClient.invalidateQueries({ queryKey: collaboratorsKey(userId) }),
  });
}
