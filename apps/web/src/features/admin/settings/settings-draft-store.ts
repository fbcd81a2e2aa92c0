import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { adminKeys } from '../api/admin-list.ts';
import type { SettingsEdits } from './settings-draft.ts';

/**
 * Where the unsaved switches wait while the admin opens another tab (the tab unmounts): the query cache rather
 * than component state, so they come back with the tab, and signing out (which empties the cache) drops them.
 */
const draftKey = [...adminKeys.all, 'settings-draft'] as const;

/** The Settings tab's unsaved edits and their setter ({} to clear; a function is handed the edits held now). */
export function useSettingsEdits(): [
  SettingsEdits,
  (edits: SettingsEdits | ((now: SettingsEdits) => SettingsEdits)) => void,
] {
  const queryClient = useQueryClient();
  const { data } = useQuery({
    queryKey: draftKey,
    // Never fetched: a refetch (an invalidation of every admin query) hands back what the cache holds.
    queryFn: () => queryClient.getQueryData<SettingsEdits>(draftKey) ?? {},
    initialData: {},
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  });
  const set = useCallback(
    (edits: SettingsEdits | ((now: SettingsEdits) => SettingsEdits)) =>
      queryClient.setQueryData<SettingsEdits>(draftKey, (now) =>
        typeof edits === 'function' ? edits(now ?? {}) : edits,
      ),
    [queryClient],
  );
  return [data, set];
}
