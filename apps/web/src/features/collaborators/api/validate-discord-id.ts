import { collaboratorValidationSchema, serverPageMessages } from '@canopy/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { collaboratorsKey, collaboratorsPath } from './keys.ts';

/** GET …/collaborators/validate/{discordId}: whether the id can be invited, as a query. */
export function validateDiscordIdQueryOptions(userId: string, discordId: string) {
  return queryOptions({
    queryKey: [...collaboratorsKey(userId), 'validate', discordId],
    queryFn: ({ signal }) =>
      api.get(`${collaboratorsPath(userId)}/validate/${encodeURIComponent(discordId)}`, {
        schema: collaboratorValidationSchema,
        signal,
        defaultError: () => serverPageMessages.validationFailed,
        // A live check: a failure shows at once, and the next keystroke asks again anyway.
        retry: false,
      }),
    // The answer depends on the list, which can change under it (another tab, a removal).
    staleTime: 0,
  });
}

/** The check of a settled Discord ID; null runs nothing (empty or malformed ids are decided locally). */
export function useDiscordIdValidation(userId: string, discordId: string | null) {
  return useQuery({ ...validateDiscordIdQueryOptions(userId, discordId ?? ''), enabled: discordId !== null });
}
