import {
  adminPanelMessages,
  type BulkActionRequest,
  type BulkActionResponse,
  bulkActionResponseSchema,
  messageResponseSchema,
} from '@canopy/contract';
import { useToast } from '../../../../components/ui/index.ts';
import { api } from '../../../../lib/api-client.ts';
import { adminKeys } from '../../api/admin-list.ts';
import { useAdminMutation } from '../../api/admin-mutation.ts';
import { bulkErrorTexts } from '../bulk/bulk-body.ts';
import { userDetailKey } from './user-detail.ts';

/** Mutation key of every write to one user, so that user's dialog waits on those writes only. */
export const userWriteKey = (discordId: string) => ['admin-user', discordId] as const;

/** The manage-user dialog's calls: POST /admin/users/{discordId}/{path} with an optional body. */
export type UserActionPath = 'expiry' | 'slot' | 'set-storage' | 'set-paid' | 'set-free' | 'credit' | 'ban' | 'unban';

/** POST /admin/users/{discordId}/{path}: the api's {message}; `fallback` when a refusal carries no 'error'. */
export function postUserAction(discordId: string, path: UserActionPath, body: unknown, fallback: string) {
  return api.post(`/admin/users/${encodeURIComponent(discordId)}/${path}`, body, {
    schema: messageResponseSchema,
    defaultError: () => fallback,
  });
}

/**
 * One write of the manage-user dialog: the api's {message} as the success toast (or `successText`, for the
 * spec's fixed 'User unbanned.'), the answer's error or `fallback` on failure; the detail and the list reload.
 */
export function useUserAction(discordId: string, path: UserActionPath, fallback: string, successText?: string) {
  return useAdminMutation<unknown, { message: string }>({
    mutationKey: userWriteKey(discordId),
    mutationFn: (body) => postUserAction(discordId, path, body, fallback),
    success: (answer) => successText ?? answer.message,
    fallback,
    invalidate: [adminKeys.list('users'), userDetailKey(discordId)],
  });
}

/**
 * POST /admin/users/bulk-action: the {message} toasted, then each per-user refusal as its own error toast
 * (section 4: a bulk call can partly succeed); 'Bulk action failed.' when the whole call fails.
 */
export function useBulkAction() {
  const toast = useToast();
  const mutation = useAdminMutation<BulkActionRequest, BulkActionResponse>({
    mutationFn: (body) =>
      api.post('/admin/users/bulk-action', body, {
        schema: bulkActionResponseSchema,
        defaultError: () => adminPanelMessages.bulkFailed,
      }),
    success: (answer) => answer.message,
    fallback: adminPanelMessages.bulkFailed,
    // Any of the open user details may have changed, as well as the list.
    invalidate: [adminKeys.list('users'), [...adminKeys.all, 'user']],
  });
  // After the hook's own success toast, so the refusals read under the summary.
  const run = (body: BulkActionRequest, onDone: () => void) =>
    mutation.mutate(body, {
      onSuccess: (answer) => {
        for (const text of bulkErrorTexts(answer.errors)) toast.error(text);
        onDone();
      },
    });
  return { run, pending: mutation.isPending };
}
