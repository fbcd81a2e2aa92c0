import { adminLogsPageSchema, adminPanelMessages } from '@canopy/contract';
import { useAdminList } from '../../api/admin-list.ts';

/** One page of GET /admin/logs, newest first as the api answers (the log has no search). */
export function useActivityLogs(page: number) {
  return useAdminList({
    list: 'logs',
    path: '/admin/logs',
    schema: adminLogsPageSchema,
    page,
    fallback: adminPanelMessages.fetchLogs,
  });
}
