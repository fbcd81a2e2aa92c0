import {
  adminCreditPacksSchema,
  type CreditPackInput,
  creditPackSaveResponseSchema,
  creditsHowToResponseSchema,
} from '@canopy/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../../lib/api-client.ts';
import { adminKeys } from '../../api/admin-list.ts';
import { useAdminMutation } from '../../api/admin-mutation.ts';

/** Query key of the credit packs and the how-to text as the Settings tab edits them. */
export const adminCreditPacksKey = [...adminKeys.all, 'credit-packs'] as const;

/** GET /admin/credit-packs. */
export function useAdminCreditPacks() {
  return useQuery({
    queryKey: adminCreditPacksKey,
    queryFn: ({ signal }) => api.get('/admin/credit-packs', { schema: adminCreditPacksSchema, signal }),
  });
}

/** POST /admin/credit-packs (no id) or PUT /admin/credit-packs/{id}: the whole pack. */
export function useSaveCreditPack() {
  return useAdminMutation({
    mutationFn: ({ id, pack }: { id?: string; pack: CreditPackInput }) =>
      id
        ? api.put(`/admin/credit-packs/${encodeURIComponent(id)}`, pack, { schema: creditPackSaveResponseSchema })
        : api.post('/admin/credit-packs', pack, { schema: creditPackSaveResponseSchema }),
    success: (answer) => answer.message,
    fallback: 'The credit pack could not be saved.',
    invalidate: [adminCreditPacksKey],
  });
}

/** PUT /admin/credit-packs/how-to. */
export function useSaveCreditsHowTo() {
  return useAdminMutation({
    mutationFn: (howTo: string) =>
      api.put('/admin/credit-packs/how-to', { howTo }, { schema: creditsHowToResponseSchema }),
    success: (answer) => answer.message,
    fallback: 'The text could not be saved.',
    invalidate: [adminCreditPacksKey],
  });
}
