import { type CreateServerRequest, hostingMessages, serverActionResponseSchema } from '@canopy/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { useToast } from '../../../components/ui/index.ts';
import { api } from '../../../lib/api-client.ts';
import { invalidateServerState, serverPath } from './invalidate.ts';

/** POST /users/{id}/server: creates the user's server. */
export function createServer(userId: string, request: CreateServerRequest) {
  return api.post(serverPath(userId), request, {
    schema: serverActionResponseSchema,
    defaultError: (a) => hostingMessages.createFailed(a.statusText),
  });
}

/** Creation as a mutation with its toasts; a second create while one is in flight is ignored. */
export function useCreateServer(userId: string) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const inFlight = useRef(false);
  const mutation = useMutation({
    mutationFn: (request: CreateServerRequest) => createServer(userId, request),
    onSuccess: (answer, request) => toast.success(hostingMessages.created(answer.server?.name ?? request.serverName)),
    onError: (error) => toast.error(error.message),
    onSettled: () => {
      inFlight.current = false;
      return invalidateServerState(queryClient, userId);
    },
  });
  return {
    isPending: mutation.isPending,
    /** Sends the request unless one is already on its way; `onSuccess` runs after the success toast. */
    run(request: CreateServerRequest, onSuccess?: () => void) {
      if (!userId || inFlight.current) return;
      inFlight.current = true;
      mutation.mutate(request, { onSuccess });
    },
  };
}
