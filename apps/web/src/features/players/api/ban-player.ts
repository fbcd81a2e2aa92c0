import { messageResponseSchema, serverPageMessages } from '@canopy/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useToast } from '../../../components/ui/index.ts';
import { api } from '../../../lib/api-client.ts';
import { playerPath, playersKey } from './keys.ts';

/** DELETE /users/{id}/server/players/{name}: bans the player (the record stays). */
export function banPlayer(userId: string, name: string) {
  return api.delete(playerPath(userId, name), {
    schema: messageResponseSchema,
    defaultError: () => serverPageMessages.banPlayerFailed,
  });
}

/** Banning, with the api's message (or its error) as a toast; the list is refetched. */
export function useBanPlayer(userId: string) {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: (name: string) => banPlayer(userId, name),
    onSuccess: (answer) => toast.success(answer.message),
    onError: (error) => toast.error(error.message),
    onSettled: () => queryClient.invalidateQueries({ queryKey: playersKey(userId) }),
  });
}
