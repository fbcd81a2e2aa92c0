import { itemMessages } from '@canopy/contract';
import { useErrorToast } from '../../../hooks/use-error-toast.ts';
import { useServerIp } from '../api/get-server-ip.ts';

/** The game server's IP from GET /ip; 'Error' (and a toast, once) when it cannot be read. */
export function ServerIp({ compact = false }: { compact?: boolean }) {
  const ip = useServerIp();
  // The page shows this twice (header and preview): only the header instance toasts.
  useErrorToast(compact ? null : ip.error);
  const value = ip.isPending ? '…' : ip.isError ? itemMessages.ipError : ip.data;
  return (
    <p
      className={`flex items-center gap-2 text-sm ${compact ? '' : 'rounded-lg border border-line bg-surface px-3 py-2'}`}
    >
      <span className="text-ink-muted">Server IP</span>
      <span
        data-testid={compact ? 'preview-server-ip' : 'server-ip'}
        className={`font-mono ${ip.isError ? 'text-red-400' : 'text-ink'}`}
      >
        {value}
      </span>
    </p>
  );
}
