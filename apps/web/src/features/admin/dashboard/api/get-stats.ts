import { ADMIN_STATS_REFRESH_MS, adminPanelMessages, adminStatsSchema } from '@canopy/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../../lib/api-client.ts';
import { adminKeys } from '../../api/admin-list.ts';

/** Query key of the dashboard figures, under the admin prefix: every admin write marks them stale (reloaded when shown). */
export const adminStatsKey = [...adminKeys.all, 'stats'] as const;

/**
 * GET /admin/stats. While auto refresh is on the figures reload every ADMIN_STATS_REFRESH_MS (admin document,
 * section 4); TanStack pauses the timer while the tab is hidden, so a forgotten tab costs the api nothing.
 */
export function useAdminStats(autoRefresh: boolean) {
  return useQuery({
    queryKey: adminStatsKey,
    queryFn: ({ signal }) =>
      api.get('/admin/stats', { schema: adminStatsSchema, signal, defaultError: () => adminPanelMessages.fetchStats }),
    refetchInterval: autoRefresh ? ADMIN_STATS_REFRESH_MS : false,
  });
}
