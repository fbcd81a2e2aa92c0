import { useQuery } from '@tanstack/react-query';
import { ownedServerEntry } from '../../../lib/owned-server.ts';
import { statusQueryOptions } from '../../../lib/status-query.ts';

// The footer shows a glance, not a live view: a slow poll keeps it roughly current until the socket lands.
const FOOTER_REFRESH_MS = 30_000;

/** The user's own server from the public status feed, for the sidebar footer. */
export function useOwnedServerStatus(serverOwned: string) {
  return useQuery({
    ...statusQueryOptions(),
    refetchInterval: FOOTER_REFRESH_MS,
    select: (feed) => ownedServerEntry(feed, serverOwned),
  });
}
