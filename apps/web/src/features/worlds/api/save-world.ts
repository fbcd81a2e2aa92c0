import { messageResponseSchema, serverPageMessages, type WorldPut } from '@canopy/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useToast } from '../../../components/ui/index.ts';
import { api } from '../../../lib/api-client.ts';
import { worldPath, worldsKey } from './keys.ts';

/** PUT /users/{id}/server/worlds/{name} with the whole world. */
export function putWorld(userId: string, name: string, world: WorldPut) {
  return api.request(worldPath(userId, name), {
    method: 'PUT',
    body: world,
    schema: messageResponseSchema,
    defaultError: () => serverPageMessages.saveWorldFailed,
  });
}

/** Saving from the editor, with the api's message (or its error) as a toast; the list is refetched. */
export function useSaveWorld(userId: string) {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: ({ name, world }: { name: string; world: WorldPut }) => putWorld(userId, name, world),
    onSuccess: (answer) => toast.success(answer.message),
    onError: (error) => toast.error(error.message),
    onSettled: () => queryClient.invalidateQueries({ queryKey: worldsKey(userId) }),
  });
}
