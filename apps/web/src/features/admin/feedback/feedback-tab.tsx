import { adminContentLabels as labels } from '@canopy/contract';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ui/index.ts';
import { useAdminCan } from '../admin-caller.ts';
import { useClampedPage } from '../api/admin-list-state.ts';
import { AdminListFrame } from '../components/admin-list-frame.tsx';
import { useAdminFeedback, useDeleteFeedback, useSetFeedbackStatus } from './api/feedback-api.ts';
import { FeedbackEntry } from './feedback-entry.tsx';

/** The Feedback tab of /admin (admin document, section 2): paged entries, status and delete (feedback:manage). */
export function FeedbackTab() {
  const manage = useAdminCan()('feedback:manage');
  const [page, setPage] = useState(1);
  const [deleting, setDeleting] = useState<string | null>(null);
  const list = useAdminFeedback(page);
  const setStatus = useSetFeedbackStatus();
  const remove = useDeleteFeedback();
  const pages = useClampedPage(page, setPage, list.data);
  const items = list.data?.items ?? [];

  return (
    <>
      <AdminListFrame
        testId="admin-feedback"
        hasData={list.data !== undefined}
        error={list.error}
        page={page}
        totalPages={pages}
        onPageChange={setPage}
      >
        {items.length === 0 ? (
          <p className="rounded-lg border border-line px-3 py-8 text-center text-ink-muted text-sm">
            {labels.noFeedback}
          </p>
        ) : (
          <ul className="divide-y divide-line/60 rounded-lg border border-line">
            {items.map((entry) => (
              <FeedbackEntry
                key={entry.id}
                entry={entry}
                busy={setStatus.isPending && setStatus.variables?.id === entry.id}
                status={entry.status}
                onStatus={manage ? (status) => setStatus.mutate({ id: entry.id, status }) : undefined}
                onDelete={manage ? () => setDeleting(entry.id) : undefined}
              />
            ))}
          </ul>
        )}
      </AdminListFrame>
      <ConfirmDialog
        open={deleting !== null}
        title={labels.deleteFeedbackTitle}
        message={labels.deleteFeedbackConfirm}
        confirmLabel={labels.delete}
        tone="danger"
        loading={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting, { onSettled: () => setDeleting(null) })}
      />
    </>
  );
}
