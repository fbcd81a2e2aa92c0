import { adminHistoryResponseSchema, type HistoryRange } from '@canopy/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../../lib/api-client.ts';
import { adminKeys } from '../../api/admin-list.ts';

/** GET /admin/history for a range; reloaded with the figures while auto refresh is on (points are a minute apart). */
export function useAdminHistory(range: HistoryRange, autoRefresh: boolean) {
  return useQuery({
    queryKey: [...adminKeys.all, 'history', range],
    queryFn: ({ signal }) => api.get(`/admin/history?range=${range}`, { schema: adminHistoryResponseSchema, signal }),
    refetchInterval: autoRefresh ? 60_000 : false,
  });
}
