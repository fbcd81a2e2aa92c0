import { type Cart, checkoutResponseSchema, shopMessages } from '@canopy/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useToast } from '../../../components/ui/index.ts';
import { api } from '../../../lib/api-client.ts';
import { profileQueryKey } from '../../../lib/profile-query.ts';
import { shopItemsKey } from './shop-items.ts';

/** POST /users/{id}/shop/checkout; the client's Idempotency-Key makes a double submit one purchase. */
export function checkout(userId: string, cart: Cart) {
  return api.post(
    `/users/${encodeURIComponent(userId)}/shop/checkout`,
    { cart },
    { schema: checkoutResponseSchema, defaultError: () => shopMessages.checkoutFailed },
  );
}

/**
 * Checkout with the api's message as a toast. On success the cart is emptied (onDone); either way the
 * profile (balance, slots, storage, time) and the listing (isPurchased) are fetched again.
 */
export function useCheckout(userId: string, onDone: () => void) {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: (cart: Cart) => checkout(userId, cart),
    onSuccess: (answer) => {
      toast.success(answer.message);
      onDone();
    },
    onError: (error) => toast.error(error.message),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: profileQueryKey(userId) });
      void queryClient.invalidateQueries({ queryKey: shopItemsKey(userId) });
    },
  });
}
