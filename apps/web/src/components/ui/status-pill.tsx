import type { ServerStatus } from '@canopy/contract';
import { Spinner } from './spinner.tsx';

const styles: Record<ServerStatus, { className: string; pending: boolean }> = {
  ONLINE: { className: 'bg-emerald-500/15 text-emerald-300 ring-emerald-500/40', pending: false },
  OFFLINE: { className: 'bg-red-500/10 text-red-300 ring-red-500/30', pending: false },
  STARTING: { className: 'bg-amber-500/15 text-amber-300 ring-amber-500/40', pending: true },
  STOPPING: { className: 'bg-amber-500/15 text-amber-300 ring-amber-500/40', pending: true },
  RESTARTING: { className: 'bg-amber-500/15 text-amber-300 ring-amber-500/40', pending: true },
  UNKNOWN: { className: 'bg-slate-500/15 text-slate-300 ring-slate-500/40', pending: false },
};

/** A server status badge in upper case; transitional statuses get the pending style with a spinner. */
export function StatusPill({ status }: { status: ServerStatus | string }) {
  const text = status.toUpperCase();
  const style = styles[text as ServerStatus] ?? styles.UNKNOWN;
  return (
    <span
      data-status={text}
      className={`inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 font-semibold text-xs tracking-wide ring-1 ring-inset ${style.className}`}
    >
      {style.pending ? (
        <Spinner size="sm" decorative />
      ) : (
        <span aria-hidden="true" className="size-1.5 rounded-full bg-current" />
      )}
      {text}
    </span>
  );
}
