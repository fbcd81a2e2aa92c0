import { messageResponseSchema, serverPageMessages } from '@canopy/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useToast } from '../../../components/ui/index.ts';
import { api } from '../../../lib/api-client.ts';
import { playerPath, playersKey } from './keys.ts';

/** POST /users/{id}/server/players/{name}/unban: lifts the player's ban. */
export function unbanPlayer(userId: string, name: string) {
  return api.post(`${playerPath(userId, name)}/unban`, undefined, {
    schema: messageResponseSchema,
    defaultError: () => serverPageMessages.unbanPlayerFailed,
  });
}

/** Unbanning, with the api's message (or its error) as a toast; the list and the player are refetched. */
export function useUnbanPlayer(userId: string) {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: (name: string) => unbanPlayer(userId, name),
    onSuccess: (answer) => toast.success(answer.message),
    onError: (error) => toast.error(error.message),
    onSettled: () => queryClient.invalidateQueries({ queryKey: playersKey(userId) }),
  });
}
