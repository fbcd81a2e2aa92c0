import { hostingMessages, serverActionResponseSchema } from '@canopy/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { useToast } from '../../../components/ui/index.ts';
import { api } from '../../../lib/api-client.ts';
import { invalidateServerState, serverPath } from './invalidate.ts';

/** DELETE /users/{id}/server: deletes the user's server and its data. */
export function deleteServer(userId: string) {
  return api.delete(serverPath(userId), {
    schema: serverActionResponseSchema,
    defaultError: (a) => hostingMessages.deleteFailed(a.statusText),
  });
}

/** Deletion as a mutation with its toasts; a second delete while one is in flight is ignored. */
export function useDeleteServer(userId: string) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const inFlight = useRef(false);
  const mutation = useMutation({
    mutationFn: () => deleteServer(userId),
    onSuccess: () => toast.success(hostingMessages.deleted),
    onError: (error) => toast.error(error.message),
    onSettled: () => {
      inFlight.current = false;
      return invalidateServerState(queryClient, userId);
    },
  });
  return {
    isPending: mutation.isPending,
    /** Deletes unless there is no server or a delete is already on its way; `onSettled` runs either way. */
    run(hasServer: boolean, onSettled?: () => void) {
      if (!userId || !hasServer || inFlight.current) return;
      inFlight.current = true;
      mutation.mutate(undefined, { onSettled });
    },
  };
}
