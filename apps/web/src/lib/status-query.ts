import { type StatusFeedEntry, statusResponseSchema } from '@canopy/contract';
import { queryOptions } from '@tanstack/react-query';
import { api, type Schema } from './api-client.ts';

/** GET /status, validated with the contract; the list of entries is what the panel uses. */
const statusResponse: Schema<StatusFeedEntry[]> = {
  safeParse(data) {
    const parsed = statusResponseSchema.safeParse(data);
    return parsed.success ? { success: true, data: parsed.data.hostedServers } : { success: false };
  },
};

/** The public status feed (GET /status, no auth wrapper) as a query. */
export function statusQueryOptions() {
  return queryOptions({
    queryKey: ['status'] as const,
    queryFn: ({ signal }) =>
      api.get('/status', {
        auth: false,
        schema: statusResponse,
        signal,
        defaultError: (a) => `Failed to fetch server data: ${a.statusText}`,
      }),
  });
}
