import type { ServerSocketMessage, ServerStatus, StatusFeedEntry } from '@canopy/contract';

/** The payload of a status_update push: one server's live status and players. */
export type StatusUpdate = Extract<ServerSocketMessage, { type: 'status_update' }>['payload'];

/** Version shown for a server the feed has not described yet. */
const UNKNOWN_VERSION = 'N/A';

/** The feed with the pushed server's status and players replaced, or the server appended when missing. */
export function applyStatusUpdate(feed: readonly StatusFeedEntry[], update: StatusUpdate): StatusFeedEntry[] {
  const found = feed.some((s) => s.name === update.name);
  if (!found) return [...feed, { ...update, version: UNKNOWN_VERSION }];
  return feed.map((s) => (s.name === update.name ? { ...s, status: update.status, players: update.players } : s));
}

/**
 * True when a push leaves the cached entry incomplete: the server is new to the feed, or it has
 * just come ONLINE (its engine reports the version when it starts, and pushes carry no version).
 */
export function pushNeedsRefetch(feed: readonly StatusFeedEntry[], update: StatusUpdate): boolean {
  const current = feed.find((s) => s.name === update.name);
  return !current || (update.status === 'ONLINE' && current.status !== 'ONLINE');
}

/** The feed with one server's status set (an optimistic action); a missing server is added as the card shows it. */
export function withServerStatus(
  feed: readonly StatusFeedEntry[],
  name: string,
  status: ServerStatus,
): StatusFeedEntry[] {
  const current = feed.find((s) => s.name === name);
  if (!current) return [...feed, { name, status, players: 0, version: UNKNOWN_VERSION }];
  return feed.map((s) => (s === current ? { ...s, status } : s));
}

/**
 * Remembers the latest push per server with a sequence number, so that a GET /status already under
 * way when a push arrives cannot overwrite the newer pushed status with its older answer.
 */
export function createPushLog() {
  let seq = 0;
  const latest = new Map<string, { update: StatusUpdate; seq: number }>();
  return {
    /** Records a push. */
    record(update: StatusUpdate): void {
      latest.set(update.name, { update, seq: ++seq });
    },
    /** A mark to take before a fetch starts. */
    mark(): number {
      return seq;
    },
    /** The fetched feed with the pushes received after `mark` applied on top. */
    mergeSince(feed: readonly StatusFeedEntry[], mark: number): StatusFeedEntry[] {
      let merged = [...feed];
      for (const entry of latest.values()) if (entry.seq > mark) merged = applyStatusUpdate(merged, entry.update);
      return merged;
    },
  };
}

/** A push log instance. */
export type PushLog = ReturnType<typeof createPushLog>;
