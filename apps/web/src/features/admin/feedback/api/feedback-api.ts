import {
  type AdminFeedback,
  type AdminPage,
  adminFeedbackPageSchema,
  adminPanelMessages,
  type FeedbackStatus,
  messageResponseSchema,
} from '@canopy/contract';
import { useQueryClient } from '@tanstack/react-query';
import { api } from '../../../../lib/api-client.ts';
import { adminKeys, useAdminList } from '../../api/admin-list.ts';
import { useAdminMutation } from '../../api/admin-mutation.ts';

const LIST = 'feedback';

/** The Feedback tab's filters as the api reads them; '' is none. */
export const noFeedbackFilters = { type: '', status: '' };

/** One page of GET /admin/feedback within the search and filters, newest first. */
export function useAdminFeedback(page: number, search = '', filters: Readonly<Record<string, string>> = {}) {
  return useAdminList({
    list: LIST,
    path: '/admin/feedback',
    schema: adminFeedbackPageSchema,
    page,
    search,
    filters,
    fallback: adminPanelMessages.fetchFeedback,
  });
}

/**
 * PUT /admin/feedback/{id}/status: any status from any other; toasts 'Status updated.'. The new status shows in
 * the cached pages at once (each entry's selector reads it there) and is put back if the call fails.
 */
export function useSetFeedbackStatus() {
  const queryClient = useQueryClient();
  const listKey = adminKeys.list(LIST);
  return useAdminMutation({
    optimistic: async ({ id, status }: { id: string; status: FeedbackStatus }) => {
      // A reload in flight would overwrite the optimistic status with the old one.
      await queryClient.cancelQueries({ queryKey: listKey });
      const before = queryClient.getQueriesData<AdminPage<AdminFeedback>>({ queryKey: listKey });
      queryClient.setQueriesData<AdminPage<AdminFeedback>>(
        { queryKey: listKey },
        (page) =>
          page && { ...page, items: page.items.map((entry) => (entry.id === id ? { ...entry, status } : entry)) },
      );
      return () => {
        for (const [key, data] of before) queryClient.setQueryData(key, data);
      };
    },
    mutationFn: ({ id, status }: { id: string; status: FeedbackStatus }) =>
      api.put(
        `/admin/feedback/${encodeURIComponent(id)}/status`,
        { status },
        {
          schema: messageResponseSchema,
          defaultError: () => adminPanelMessages.updateStatus,
        },
      ),
    success: () => adminPanelMessages.statusUpdated,
    fallback: adminPanelMessages.updateStatus,
    invalidate: [listKey],
  });
}

/** DELETE /admin/feedback/{id}: toasts 'Feedback deleted.'. */
export function useDeleteFeedback() {
  return useAdminMutation({
    mutationFn: (id: string) =>
      api.delete(`/admin/feedback/${encodeURIComponent(id)}`, {
        schema: messageResponseSchema,
        defaultError: () => adminPanelMessages.deleteFeedback,
      }),
    success: () => adminPanelMessages.feedbackDeleted,
    fallback: adminPanelMessages.deleteFeedback,
    invalidate: [adminKeys.list(LIST)],
  });
}
