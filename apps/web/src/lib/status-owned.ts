import type { StatusFeedEntry } from '@canopy/contract';
import { hasServer, ownedServerEntry } from './owned-server.ts';

/**
 * The user's server for the card, sidebar and server pages. When the status feed failed, nothing is
 * known about the engine (it may well be running), so the server is UNKNOWN rather than the OFFLINE
 * of a server missing from a feed that did answer. Null when the user has no server.
 */
export function ownedServerView(
  feed: readonly StatusFeedEntry[] | undefined,
  feedFailed: boolean,
  serverOwned: string | null | undefined,
): StatusFeedEntry | null {
  if (feedFailed && hasServer(serverOwned)) return { name: serverOwned, status: 'UNKNOWN', players: 0, version: 'N/A' };
  return ownedServerEntry(feed, serverOwned);
}
