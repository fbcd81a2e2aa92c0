import { alertMessages, messageResponseSchema, type ServerAlertsRequest, serverAlertsSchema } from '@canopy/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useToast } from '../../../components/ui/index.ts';
import { api } from '../../../lib/api-client.ts';

const alertsPath = (userId: string) => `/users/${userId}/server/alerts`;
const alertsKey = (userId: string) => ['server-alerts', userId] as const;

/** GET /users/{id}/server/alerts: the webhook's hint and the chosen events. */
export function useServerAlerts(userId: string) {
  return useQuery(
    queryOptions({
      queryKey: alertsKey(userId),
      queryFn: ({ signal }) =>
        api.get(alertsPath(userId), {
          schema: serverAlertsSchema,
          signal,
          defaultError: () => 'Discord alerts could not be loaded.',
        }),
    }),
  );
}

/** The three writes: save (PUT), remove (DELETE), test (POST …/test); each toasts the api's answer. */
export function useAlertsAction(userId: string, kind: 'save' | 'remove' | 'test') {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: (body?: ServerAlertsRequest) => {
      const opts = { schema: messageResponseSchema, defaultError: () => 'The request failed.' };
      if (kind === 'save') return api.request(alertsPath(userId), { method: 'PUT', body, ...opts });
      if (kind === 'remove') return api.delete(alertsPath(userId), opts);
      return api.post(`${alertsPath(userId)}/test`, undefined, opts);
    },
    onSuccess: (answer) => toast.success(answer.message ?? alertMessages.saved),
    onError: (error) => toast.error(error.message),
    onSettled: () => queryClient.invalidateQueries({ queryKey: alertsKey(userId) }),
  });
}
