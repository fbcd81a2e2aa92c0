import { adminPanelMessages, storageAnalyticsSchema } from '@canopy/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../../lib/api-client.ts';
import { adminKeys } from '../../api/admin-list.ts';

/** Query key of the storage analytics, under the admin prefix: every admin write (a new limit, a deleted server) marks it stale. */
export const storageAnalyticsKey = [...adminKeys.all, 'storage-analytics'] as const;

/** GET /admin/storage-analytics: totals, the four size buckets and the top 10 consumers. */
export function useStorageAnalytics() {
  return useQuery({
    queryKey: storageAnalyticsKey,
    queryFn: ({ signal }) =>
      api.get('/admin/storage-analytics', {
        schema: storageAnalyticsSchema,
        signal,
        defaultError: () => adminPanelMessages.fetchStorage,
      }),
  });
}
