import { hostingMessages, type StatusFeedEntry, statusResponseSchema } from '@canopy/contract';
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { ApiError, api, type Schema } from './api-client.ts';
import { profileQueryKey } from './profile-query.ts';
import { applyStatusUpdate, createPushLog, pushNeedsRefetch, type StatusUpdate } from './status-cache.ts';

/** GET /status, validated with the contract; the list of entries is what the panel uses. */
const statusResponse: Schema<StatusFeedEntry[]> = {
  safeParse(data) {
    const parsed = statusResponseSchema.safeParse(data);
    return parsed.success ? { success: true, data: parsed.data.hostedServers } : { success: false };
  },
};

/** Query key of the status feed; the socket and the optimistic actions write to this entry. */
export const statusQueryKey = ['status'] as const;

// Pushes that arrive while a fetch is under way are re-applied to its (older) answer.
const pushes = createPushLog();

/** The public status feed (GET /status, no auth wrapper) as a query. */
export function statusQueryOptions() {
  return queryOptions({
    queryKey: statusQueryKey,
    queryFn: async ({ signal }) => {
      const mark = pushes.mark();
      try {
        const feed = await api.get('/status', {
          auth: false,
          schema: statusResponse,
          signal,
          defaultError: (a) => a.statusText,
        });
        return pushes.mergeSince(feed, mark);
      } catch (error) {
        // Spec section 8: 'Failed to fetch server data: …' with the api's error, the status text or the network failure.
        if (!(error instanceof ApiError)) throw error;
        throw new ApiError(error.status, error.statusText, hostingMessages.fetchFailed(error.message), error.code);
      }
    },
  });
}

/**
 * Writes a status_update push into the cached feed (nothing to update before the first fetch) and
 * refetches when the push leaves the entry incomplete (a new server, or the version of a fresh start).
 */
export function applyStatusPush(queryClient: QueryClient, update: StatusUpdate): void {
  pushes.record(update);
  const feed = queryClient.getQueryData<StatusFeedEntry[]>(statusQueryKey);
  if (feed === undefined) return;
  queryClient.setQueryData<StatusFeedEntry[]>(statusQueryKey, applyStatusUpdate(feed, update));
  if (pushNeedsRefetch(feed, update)) void queryClient.invalidateQueries({ queryKey: statusQueryKey });
}

/**
 * Something the scheduler or the crash-loop guard did (a server_notice push, or a server time boundary
 * reached on the page): the profile (time, banners) and the status feed are refetched.
 */
export function refetchServerFacts(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: statusQueryKey });
  // Every user's profile entry: the key's first element is the prefix ['profile'].
  void queryClient.invalidateQueries({ queryKey: profileQueryKey('').slice(0, 1) });
}
