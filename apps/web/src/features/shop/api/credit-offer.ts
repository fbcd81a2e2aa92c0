import { creditCheckoutResponseSchema, creditOfferSchema, creditPackMessages as m } from '@canopy/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useToast } from '../../../components/ui/index.ts';
import { api } from '../../../lib/api-client.ts';

/** GET /credits/offer: the packs on sale (Stripe configured) or the operator's text. */
export function useCreditOffer() {
  return useQuery({
    queryKey: ['credit-offer'],
    queryFn: ({ signal }) => api.get('/credits/offer', { schema: creditOfferSchema, signal }),
  });
}

/**
 * POST /users/{id}/credits/checkout, then off to Stripe's page. The client's Idempotency-Key makes a double
 * click one session; the balance moves when Stripe's webhook arrives, after the buyer comes back.
 */
export function useBuyCredits(userId: string) {
  const toast = useToast();
  return useMutation({
    mutationFn: (packId: string) =>
      api.post(
        `/users/${encodeURIComponent(userId)}/credits/checkout`,
        { packId },
        { schema: creditCheckoutResponseSchema, defaultError: () => m.stripeFailed },
      ),
    onSuccess: (answer) => window.location.assign(answer.url),
    onError: (error) => toast.error(error.message),
  });
}
