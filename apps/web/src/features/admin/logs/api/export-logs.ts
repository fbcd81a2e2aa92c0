import { useMutation } from '@tanstack/react-query';
import { useToast } from '../../../../components/ui/index.ts';
import { api } from '../../../../lib/api-client.ts';
import { adminListUrl } from '../../api/admin-list.ts';
import { download, EXPORT_FAILED, exportFileName } from './export-file.ts';

/**
 * GET /admin/logs/export with the tab's search and filters: the CSV arrives through the api client (its bearer
 * token and refresh), not as a plain link the browser would send without the token.
 */
export function useExportLogs() {
  const toast = useToast();
  return useMutation({
    mutationFn: async ({ search, filters }: { search: string; filters: Readonly<Record<string, string>> }) => {
      const bytes = await api.get<Uint8Array>(adminListUrl('/admin/logs/export', null, search, filters), {
        responseType: 'bytes',
        defaultError: () => EXPORT_FAILED,
      });
      download(bytes, exportFileName(new Date()));
    },
    onError: (error) => toast.error(error.message || EXPORT_FAILED),
  });
}
