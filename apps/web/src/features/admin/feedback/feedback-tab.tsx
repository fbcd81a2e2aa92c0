import {
  adminAuditMessages as audit,
  FEEDBACK_STATUSES,
  FEEDBACK_TYPES,
  adminContentLabels as labels,
} from '@canopy/contract';
import { useState } from 'react';
import { ConfirmDialog, Select } from '../../../components/ui/index.ts';
import { useAdminCan } from '../admin-caller.ts';
import { useAdminFilters } from '../api/admin-filters.ts';
import { useClampedPage } from '../api/admin-list-state.ts';
import { AdminListFrame } from '../components/admin-list-frame.tsx';
import { noFeedbackFilters, useAdminFeedback, useDeleteFeedback, useSetFeedbackStatus } from './api/feedback-api.ts';
import { FeedbackEntry } from './feedback-entry.tsx';

const asOption = (value: string) => ({ value, label: value });
const typeOptions = [{ value: '', label: audit.allTypes }, ...FEEDBACK_TYPES.map(asOption)];
const statusOptions = [{ value: '', label: audit.allStatuses }, ...FEEDBACK_STATUSES.map(asOption)];

/**
 * The Feedback tab of /admin (admin document, section 2): paged entries, status and delete (feedback:manage),
 * searched and filtered by type and status on the server.
 */
export function FeedbackTab() {
  const manage = useAdminCan()('feedback:manage');
  const filter = useAdminFilters(noFeedbackFilters);
  const { page, setPage } = filter;
  const [deleting, setDeleting] = useState<string | null>(null);
  const list = useAdminFeedback(page, filter.search, filter.applied);
  const setStatus = useSetFeedbackStatus();
  const remove = useDeleteFeedback();
  const pages = useClampedPage(page, setPage, list.data);
  const items = list.data?.items ?? [];

  return (
    <>
      <AdminListFrame
        testId="admin-feedback"
        search={{
          value: filter.input,
          onChange: filter.setInput,
          placeholder: audit.feedbackSearchPlaceholder,
          label: audit.feedbackSearchLabel,
        }}
        actions={
          <>
            <Select
              label={audit.typeLabel}
              hideLabel
              options={typeOptions}
              value={filter.filters.type}
              onChange={(event) => filter.setFilter('type', event.target.value)}
            />
            <Select
              label={audit.statusLabel}
              hideLabel
              options={statusOptions}
              value={filter.filters.status}
              onChange={(event) => filter.setFilter('status', event.target.value)}
            />
          </>
        }
        hasData={list.data !== undefined}
        error={list.error}
        page={page}
        totalPages={pages}
        onPageChange={setPage}
      >
        {items.length === 0 ? (
          <p className="rounded-lg border border-line px-3 py-8 text-center text-ink-muted text-sm">
            {filter.active ? audit.noMatch : labels.noFeedback}
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
