import { useMutation } from '@tanstack/react-query';
import { useToast } from '../../../../components/ui/index.ts';
import { api } from '../../../../lib/api-client.ts';
import { adminListUrl } from '../../api/admin-list.ts';

/** Not in the spec: the export's own failure text, in the tone of its 'Failed to fetch logs.'. */
export const EXPORT_FAILED = 'Failed to export logs.';

/** The export's file name: the day it was made, as the api names it too. */
export const exportFileName = (now: Date) => `activity-logs-${now.toISOString().slice(0, 10)}.csv`;

/** Hands bytes to the browser as a downloaded file (a link clicked once, its object URL freed after). */
function download(bytes: Uint8Array, name: string) {
  const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

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
