import { adminPanelMessages, adminUserDetailSchema } from '@canopy/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../../lib/api-client.ts';
import { adminKeys } from '../../api/admin-list.ts';

/** Query key of one user's detail; under `adminKeys.all`, apart from the Users list's keys. */
export const userDetailKey = (discordId: string) => [...adminKeys.all, 'user', discordId] as const;

/** GET /admin/users/{discordId}: what the manage-user dialog shows, fetched fresh each time it opens. */
export function useAdminUser(discordId: string) {
  return useQuery({
    queryKey: userDetailKey(discordId),
    queryFn: ({ signal }) =>
      api.get(`/admin/users/${encodeURIComponent(discordId)}`, {
        schema: adminUserDetailSchema,
        signal,
        defaultError: () => adminPanelMessages.fetchUser,
      }),
    staleTime: 0,
  });
}
