import { collaboratorListSchema, serverPageMessages } from '@canopy/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { collaboratorsKey, collaboratorsPath } from './keys.ts';

/** GET /users/{id}/server/collaborators (a bare list) as a query. */
export function collaboratorsQueryOptions(userId: string) {
  return queryOptions({
    queryKey: [...collaboratorsKey(userId), 'list'],
    queryFn: ({ signal }) =>
      api.get(collaboratorsPath(userId), {
        schema: collaboratorListSchema,
        signal,
        defaultError: (a) =>
          a.bodyIsJson ? serverPageMessages.fetchCollaboratorsFailed : serverPageMessages.requestFailedStatus(a.status),
      }),
  });
}

/** The owner's collaborators; disabled when the page shows a reason instead of the list. */
export function useCollaborators(userId: string, enabled: boolean) {
  return useQuery({ ...collaboratorsQueryOptions(userId), enabled });
}
