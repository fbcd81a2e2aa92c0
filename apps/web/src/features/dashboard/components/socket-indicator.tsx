import { useSocketState } from '../../../hooks/use-server-socket.ts';

const labels = { OPEN: 'Live', CONNECTING: 'Connecting…', CLOSED: 'Disconnected' } as const;
const dots = { OPEN: 'bg-emerald-400', CONNECTING: 'bg-amber-400 animate-pulse', CLOSED: 'bg-slate-500' } as const;

/** A small mark telling whether status changes arrive live (socket open) or by the slower poll. */
export function SocketIndicator() {
  const state = useSocketState();
  return (
    <span
      data-testid="socket-state"
      data-state={state}
      title={
        state === 'OPEN'
          ? 'Status updates arrive live.'
          : 'Live updates are unavailable; the status is refreshed periodically.'
      }
      className="inline-flex items-center gap-1.5 text-ink-muted text-xs"
    >
      <span aria-hidden="true" className={`size-2 rounded-full ${dots[state]}`} />
      {labels[state]}
    </span>
  );
}
