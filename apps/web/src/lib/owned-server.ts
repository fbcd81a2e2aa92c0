import { NO_SERVER, type StatusFeedEntry } from '@canopy/contract';

/** True when the profile's serverOwned names a server. */
export function hasServer(serverOwned: string | null | undefined): serverOwned is string {
  return !!serverOwned && serverOwned !== NO_SERVER;
}

/**
 * The user's server as the status feed reports it; a server missing from the feed shows as
 * OFFLINE with 0 players and version N/A (spec section 4). Null when the user has no server.
 */
export function ownedServerEntry(
  feed: readonly StatusFeedEntry[] | undefined,
  serverOwned: string | null | undefined,
): StatusFeedEntry | null {
  if (!hasServer(serverOwned)) return null;
  return (
    feed?.find((s) => s.name === serverOwned) ?? { name: serverOwned, status: 'OFFLINE', players: 0, version: 'N/A' }
  );
}
