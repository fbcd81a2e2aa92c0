import { backupMessages, backupStatusSchema } from '@canopy/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { backupKey, backupPath } from './keys.ts';

/** GET /users/{id}/server/backup as a query; fetched again whenever the page mounts. */
export function backupQueryOptions(userId: string) {
  return queryOptions({
    queryKey: backupKey(userId),
    queryFn: ({ signal }) =>
      api.get(backupPath(userId), {
        schema: backupStatusSchema,
        signal,
        defaultError: () => backupMessages.fetchFailed,
      }),
    staleTime: 0,
  });
}

/** The account's backup status: exists, createdAt, bytes. */
export function useBackupStatus(userId: string) {
  return useQuery(backupQueryOptions(userId));
}
