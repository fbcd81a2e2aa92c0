import {
  type AdminCreateCode,
  adminContentMessages,
  adminCreateCodeResponseSchema,
  adminPanelMessages,
  adminRedeemCodePageSchema,
  messageResponseSchema,
} from '@canopy/contract';
import { api } from '../../../../lib/api-client.ts';
import { adminKeys, useAdminList } from '../../api/admin-list.ts';
import { useAdminMutation } from '../../api/admin-mutation.ts';

const LIST = 'redeem-codes';

/** One page of GET /admin/redeem-codes, searched by code text. */
export function useAdminCodes(page: number, search: string) {
  return useAdminList({
    list: LIST,
    path: '/admin/redeem-codes',
    schema: adminRedeemCodePageSchema,
    page,
    search,
    fallback: adminPanelMessages.fetchCodes,
  });
}

/** POST /admin/redeem-codes: toasts the new code's text and reloads the list. */
export function useCreateCode() {
  return useAdminMutation({
    mutationFn: (body: AdminCreateCode) =>
      api.post('/admin/redeem-codes', body, {
        schema: adminCreateCodeResponseSchema,
        defaultError: () => adminPanelMessages.createCode,
      }),
    success: (answer) => adminContentMessages.codeCreated(answer.code),
    fallback: adminPanelMessages.createCode,
    invalidate: [adminKeys.list(LIST)],
  });
}

/** DELETE /admin/redeem-codes/{code}: toasts the api's {message}. */
export function useDeleteCode() {
  return useAdminMutation({
    mutationFn: (code: string) =>
      api.delete(`/admin/redeem-codes/${encodeURIComponent(code)}`, {
        schema: messageResponseSchema,
        defaultError: () => adminPanelMessages.deleteCode,
      }),
    success: (answer) => answer.message,
    fallback: adminPanelMessages.deleteCode,
    invalidate: [adminKeys.list(LIST)],
  });
}
