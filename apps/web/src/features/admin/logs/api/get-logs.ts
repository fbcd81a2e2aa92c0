import { adminLogsPageSchema, adminPanelMessages } from '@canopy/contract';
import { useAdminList } from '../../api/admin-list.ts';

/** The Activity Logs' filters as the api reads them (admin-audit.ts in the contract); '' is none. */
export interface ActivityLogFilters extends Record<string, string> {
  action: string;
  actorType: string;
  from: string;
  to: string;
}

export const noActivityLogFilters: ActivityLogFilters = { action: '', actorType: '', from: '', to: '' };

/** One page of GET /admin/logs within the search and filters, newest first as the api answers. */
export function useActivityLogs(page: number, search = '', filters: ActivityLogFilters = noActivityLogFilters) {
  return useAdminList({
    list: 'logs',
    path: '/admin/logs',
    schema: adminLogsPageSchema,
    page,
    search,
    filters,
    fallback: adminPanelMessages.fetchLogs,
  });
}
