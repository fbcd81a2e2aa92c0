import { type HistoryRange, serverHistoryResponseSchema } from '@canopy/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { serverPath } from './invalidate.ts';

/** Points are sampled once a minute: reloading more often would show nothing new. */
const HISTORY_REFRESH_MS = 60_000;

/** GET /users/:id/server/history for a range, reloaded every minute while shown. */
export function useServerHistory(userId: string, range: HistoryRange) {
  return useQuery({
    queryKey: ['server-history', userId, range],
    queryFn: ({ signal }) =>
      api.get(`${serverPath(userId)}/history?range=${range}`, { schema: serverHistoryResponseSchema, signal }),
    refetchInterval: HISTORY_REFRESH_MS,
    retry: false,
  });
}
