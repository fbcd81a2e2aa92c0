import { messages, type RegisterRequest, registerResponseSchema } from '@canopy/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { profileQueryKey } from '../../../lib/profile-query.ts';

/** POST /register: claims the permanent GrowID for the signed-in account. */
export function registerGrowId(request: RegisterRequest) {
  // The spec's call has no auth header; ours sends it anyway so the api can check the account is the caller's.
  return api.post('/register', request, {
    schema: registerResponseSchema,
    defaultError: (a) => messages.registrationFailed(a.statusText),
  });
}

/** The registration as a mutation; on success the profile is refetched so the guard lets the user in. */
export function useRegister() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: registerGrowId,
    // Not awaited: the caller's success toast must fire before the refetch swaps this screen away.
    onSuccess: (_data, request) => {
      void queryClient.invalidateQueries({ queryKey: profileQueryKey(request.discordId) });
    },
  });
}
