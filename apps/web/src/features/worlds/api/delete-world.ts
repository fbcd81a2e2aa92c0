import { messageResponseSchema, serverPageMessages } from '@canopy/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useToast } from '../../../components/ui/index.ts';
import { api } from '../../../lib/api-client.ts';
import { worldPath, worldsKey } from './keys.ts';

/** DELETE /users/{id}/server/worlds/{name}. */
export function deleteWorld(userId: string, name: string) {
  return api.delete(worldPath(userId, name), {
    schema: messageResponseSchema,
    defaultError: () => serverPageMessages.deleteWorldFailed,
  });
}

/** Deleting a world, with the api's message (or its error) as a toast; the list is refetched. */
export function useDeleteWorld(userId: string) {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: (name: string) => deleteWorld(userId, name),
    onSuccess: (answer) => toast.success(answer.message),
    onError: (error) => toast.error(error.message),
    onSettled: () => queryClient.invalidateQueries({ queryKey: worldsKey(userId) }),
  });
}
