import { messageResponseSchema, type PlayerPut, serverPageMessages } from '@canopy/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useToast } from '../../../components/ui/index.ts';
import { api } from '../../../lib/api-client.ts';
import { playerPath, playersKey } from './keys.ts';

/** PUT /users/{id}/server/players/{name} with the whole player (an empty pass keeps the password). */
export function putPlayer(userId: string, name: string, player: PlayerPut) {
  return api.request(playerPath(userId, name), {
    method: 'PUT',
    body: player,
    schema: messageResponseSchema,
    defaultError: () => serverPageMessages.savePlayerFailed,
  });
}

/** Saving from the editor, with the api's message (or its error) as a toast; the list is refetched. */
export function useSavePlayer(userId: string) {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: ({ name, player }: { name: string; player: PlayerPut }) => putPlayer(userId, name, player),
    onSuccess: (answer) => toast.success(answer.message),
    onError: (error) => toast.error(error.message),
    onSettled: () => queryClient.invalidateQueries({ queryKey: playersKey(userId) }),
  });
}
