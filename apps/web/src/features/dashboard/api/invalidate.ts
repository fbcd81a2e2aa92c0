import type { QueryClient } from '@tanstack/react-query';
import { profileQueryKey } from '../../../lib/profile-query.ts';
import { statusQueryKey } from '../../../lib/status-query.ts';

/** Refetches what a create, delete or power action changes: the profile (server, slots) and the status feed. */
export function invalidateServerState(queryClient: QueryClient, userId: string): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: profileQueryKey(userId) }),
    queryClient.invalidateQueries({ queryKey: statusQueryKey }),
  ]).then(() => undefined);
}

/** The path of a user's server resource. */
export const serverPath = (userId: string) => `/users/${encodeURIComponent(userId)}/server`;
