import { adminFeedbackPageSchema, adminPanelMessages, type FeedbackStatus } from '@canopy/contract';
import { api } from '../../../../lib/api-client.ts';
import { adminKeys, useAdminList } from '../../api/admin-list.ts';
import { useAdminMutation } from '../../api/admin-mutation.ts';

const LIST = 'feedback';

/** One page of GET /admin/feedback, newest first. */
export function useAdminFeedback(page: number) {
  return useAdminList({
    list: LIST,
    path: '/admin/feedback',
    schema: adminFeedbackPageSchema,
    page,
    fallback: adminPanelMessages.fetchFeedback,
  });
}

/** PUT /admin/feedback/{id}/status: any status from any other; toasts 'Status updated.'. */
export function useSetFeedbackStatus() {
  return useAdminMutation({
    mutationFn: ({ id, status }: { id: string; status: FeedbackStatus }) =>
      api.put(
        `/admin/feedback/${encodeURIComponent(id)}/status`,
        { status },
        {
          defaultError: () => adminPanelMessages.updateStatus,
        },
      ),
    success: () => adminPanelMessages.statusUpdated,
    fallback: adminPanelMessages.updateStatus,
    invalidate: [adminKeys.list(LIST)],
  });
}

/** DELETE /admin/feedback/{id}: toasts 'Feedback deleted.'. */
export function useDeleteFeedback() {
  return useAdminMutation({
    mutationFn: (id: string) =>
      api.delete(`/admin/feedback/${encodeURIComponent(id)}`, {
        defaultError: () => adminPanelMessages.deleteFeedback,
      }),
    success: () => adminPanelMessages.feedbackDeleted,
    fallback: adminPanelMessages.deleteFeedback,
    invalidate: [adminKeys.list(LIST)],
  });
}
