import type { StatusFeedEntry } from '@canopy/contract';
import { useQuery } from '@tanstack/react-query';
import { ownedServerView } from '../lib/status-owned.ts';
import { statusQueryOptions } from '../lib/status-query.ts';
import { useSocketState } from './use-server-socket.ts';

/** Poll of the status feed while the socket is not open; an open socket pushes every change instead. */
export const STATUS_FALLBACK_POLL_MS = 30_000;

/** The user's server as the status feed reports it, and the feed's load error. */
export interface OwnedServerStatus {
  /** Null when the user has no server; OFFLINE / 0 / 'N/A' when the feed does not list it; UNKNOWN when it failed. */
  server: StatusFeedEntry | null;
  /** The failed fetch; the list then counts as empty (spec section 8). */
  error: Error | null;
  isPending: boolean;
  /** Loads the status feed again (after a failure). */
  retry: () => void;
  isFetching: boolean;
}

/** The user's own server from the live status feed (socket pushes, with a poll while the socket is down). */
export function useOwnedServer(serverOwned: string): OwnedServerStatus {
  const socketState = useSocketState();
  const query = useQuery({
    ...statusQueryOptions(),
    refetchInterval: socketState === 'OPEN' ? false : STATUS_FALLBACK_POLL_MS,
  });
  return {
    server: ownedServerView(query.data, query.isError, serverOwned),
    error: query.isError ? query.error : null,
    isPending: query.isPending,
    retry: () => void query.refetch(),
    isFetching: query.isFetching,
  };
}
