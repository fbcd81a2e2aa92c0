import { type RedeemRequest, type RedeemResponse, redeemMessages, redeemResponseSchema } from '@canopy/contract';
import { type MutateOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useToast } from '../../../components/ui/index.ts';
import { api } from '../../../lib/api-client.ts';
import { profileQueryKey } from '../../../lib/profile-query.ts';
import { oneAtATime } from '../redeem-view.ts';
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
 * statuses update everywhere (a refusal may mean the list was stale). `redeem` ignores a submit while one
 * is running (a quick second Enter would otherwise send the code again: a success, then "already redeemed").
 */
export function useRedeemCode(userId: string) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [guard] = useState(oneAtATime);
  const mutation = useMutation({
    mutationFn: (body: RedeemRequest) => redeemCode(userId, body),
    onSuccess: (answer) => toast.success(answer.message),
    onError: (error) => toast.error(error.message || redeemMessages.redeemFailed),
    onSettled: () => {
      guard.finish();
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: profileQueryKey(userId) }),
        queryClient.invalidateQueries({ queryKey: publicCodesKey(userId) }),
      ]);
    },
  });
  const redeem = (body: RedeemRequest, options?: MutateOptions<RedeemResponse, Error, RedeemRequest>) => {
    if (guard.start()) mutation.mutate(body, options);
  };
  return { ...mutation, redeem };
}
