import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ApiError } from '../../../lib/api-client.ts';
import { profileQueryKey } from '../../../lib/profile-query.ts';
import { adminKeys } from './admin-list.ts';

/** A 403 answer: the caller may not do this, perhaps because their admin role or permissions just changed. */
export const isRefusal = (error: unknown) => error instanceof ApiError && error.status === 403;

/**
 * Calls `onRefused` whenever an admin query (key under `adminKeys.all`) or any write is refused with a 403.
 * Returns the unsubscribe.
 */
export function watchAdminRefusals(queryClient: QueryClient, onRefused: () => void): () => void {
  const stopQueries = queryClient.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.action.type !== 'error') return;
    if (event.query.queryKey[0] === adminKeys.all[0] && isRefusal(event.action.error)) onRefused();
  });
  const stopWrites = queryClient.getMutationCache().subscribe((event) => {
    if (event.type === 'updated' && event.action.type === 'error' && isRefusal(event.action.error)) onRefused();
  });
  return () => {
    stopQueries();
    stopWrites();
  };
}

/**
 * While the Admin Panel is open: a refused admin call makes the profile reload, so an admin demoted or stripped
 * of a permission meanwhile leaves the pages they may no longer open (the route gate sends a non-admin to
 * /dashboard; the panel drops the tabs they lost) instead of staying on a panel the api refuses.
 */
export function useRecheckProfileOnRefusal(userId: string) {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      watchAdminRefusals(queryClient, () => {
        void queryClient.invalidateQueries({ queryKey: profileQueryKey(userId) });
      }),
    [queryClient, userId],
  );
}
