import { type RedeemRequest, redeemMessages, redeemResponseSchema } from '@canopy/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useToast } from '../../../components/ui/index.ts';
import { api } from '../../../lib/api-client.ts';
import { profileQueryKey } from '../../../lib/profile-query.ts';
import { publicCodesKey, redeemBase } from './keys.ts';

/** POST /users/{id}/redeem. */
export function redeemCode(userId: string, body: RedeemRequest) {
  return api.post(`${redeemBase(userId)}/redeem`, body, {
    schema: redeemResponseSchema,
    defaultError: () => redeemMessages.redeemFailed,
  });
}

/**
 * Redeeming as a mutation with its toasts: the api's message on success, its error (else the spec's
 * default) on failure. The profile and the list are refetched either way, so slots, server time and
 * statuses update everywhere (a refusal may mean the list was stale).
 */
export function useRedeemCode(userId: string) {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: (body: RedeemRequest) => redeemCode(userId, body),
    onSuccess: (answer) => toast.success(answer.message),
    onError: (error) => toast.error(error.message || redeemMessages.redeemFailed),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: profileQueryKey(userId) }),
        queryClient.invalidateQueries({ queryKey: publicCodesKey(userId) }),
      ]),
  });
}
