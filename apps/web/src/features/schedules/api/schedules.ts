import {
  messageResponseSchema,
  type ScheduleInput,
  scheduleListSchema,
  scheduleResponseSchema,
} from '@canopy/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useToast } from '../../../components/ui/index.ts';
import { api } from '../../../lib/api-client.ts';

/** Query key of the server's schedules. */
export const schedulesKey = (userId: string) => ['schedules', userId] as const;
const path = (userId: string) => `/users/${encodeURIComponent(userId)}/server/schedules`;

/** GET /users/{id}/server/schedules as a query. */
export function useSchedules(userId: string) {
  return useQuery(
    queryOptions({
      queryKey: schedulesKey(userId),
      queryFn: ({ signal }) =>
        api.get(path(userId), {
          schema: scheduleListSchema,
          signal,
          defaultError: () => 'Failed to fetch schedules.',
        }),
    }),
  );
}

/** What the page asks of the api: a create, an edit (id) or a delete (id, no input). */
type ScheduleWrite = { id?: string; input?: ScheduleInput };

function write(userId: string, { id, input }: ScheduleWrite) {
  if (!id) return api.post(path(userId), input, { schema: scheduleResponseSchema });
  if (!input) return api.delete(`${path(userId)}/${encodeURIComponent(id)}`, { schema: messageResponseSchema });
  return api.put(`${path(userId)}/${encodeURIComponent(id)}`, input, { schema: scheduleResponseSchema });
}

/** POST, PUT or DELETE a schedule with the api's message (or its error) as a toast; the list is fetched again. */
export function useScheduleWrite(userId: string) {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: (w: ScheduleWrite) => write(userId, w),
    onSuccess: (answer) => toast.success(answer.message),
    onError: (error) => toast.error(error.message),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: schedulesKey(userId) }),
  });
}
