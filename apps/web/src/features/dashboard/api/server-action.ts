import { hostingMessages, type PowerAction, type StatusFeedEntry, serverActionResponseSchema } from '@canopy/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { useToast } from '../../../components/ui/index.ts';
import { api } from '../../../lib/api-client.ts';
import { withServerStatus } from '../../../lib/status-cache.ts';
import { statusQueryKey } from '../../../lib/status-query.ts';
import { pendingStatusOf } from '../server-controls.ts';
import { invalidateServerState, serverPath } from './invalidate.ts';

interface ActionRequest {
  serverName: string;
  action: PowerAction;
}

/** POST /users/{id}/server/{serverId}/{action}; the server id is its name. */
export function postServerAction(userId: string, { serverName, action }: ActionRequest) {
  return api.post(`${serverPath(userId)}/${encodeURIComponent(serverName)}/${action}`, undefined, {
    schema: serverActionResponseSchema,
    defaultError: (a) => hostingMessages.actionFailed(a.statusText),
  });
}

/**
 * Power actions with the optimistic status of spec section 4: the transitional status is written
 * into the ['status'] cache at once and the previous list comes back if the api refuses. The final
 * status arrives by the socket (or the refetch that follows).
 */
export function useServerAction(userId: string) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const inFlight = useRef(new Set<PowerAction>());
  const mutation = useMutation({
    mutationFn: (request: ActionRequest) => postServerAction(userId, request),
    onMutate: async ({ serverName, action }) => {
      // A fetch under way would land after the optimistic write and undo it.
      await queryClient.cancelQueries({ queryKey: statusQueryKey });
      const previous = queryClient.getQueryData<StatusFeedEntry[]>(statusQueryKey);
      const pending = pendingStatusOf(action);
      queryClient.setQueryData<StatusFeedEntry[]>(
        statusQueryKey,
        withServerStatus(previous ?? [], serverName, pending),
      );
      toast.info(hostingMessages.actionStarted(pending, serverName));
      return { previous };
    },
    onError: (error, _request, context) => {
      if (context?.previous) queryClient.setQueryData(statusQueryKey, context.previous);
      toast.error(error.message);
    },
    onSuccess: (_answer, { action }) => toast.success(hostingMessages.actionSucceeded(action)),
    onSettled: (_answer, _error, { action }) => {
      inFlight.current.delete(action);
      return invalidateServerState(queryClient, userId);
    },
  });
  return {
    /** The action on its way, if any. */
    pendingAction: mutation.isPending ? (mutation.variables?.action ?? null) : null,
    /** Runs an action unless there is no user or the same action is already in flight. */
    run(serverName: string, action: PowerAction) {
      if (!userId || inFlight.current.has(action)) return;
      inFlight.current.add(action);
      mutation.mutate({ serverName, action });
    },
  };
}
