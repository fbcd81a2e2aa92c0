import { creditHistorySchema, creditReasonLabels, creditPackMessages as m } from '@canopy/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Pagination, SkeletonRows } from '../../../components/ui/index.ts';
import { api } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format.ts';

/** Query key of a user's credit history (every page). */
export const creditHistoryKey = (userId: string) => ['credit-history', userId] as const;

/** The Profile's credit history (issue 24), also in the admin's Manage user: every change of the balance. */
export function CreditHistory({ userId }: { userId: string }) {
  const [page, setPage] = useState(1);
  const history = useQuery({
    queryKey: [...creditHistoryKey(userId), page],
    queryFn: ({ signal }) =>
      api.get(`/users/${encodeURIComponent(userId)}/credit-history?page=${page}`, {
        schema: creditHistorySchema,
        signal,
      }),
    placeholderData: keepPreviousData,
  });
  if (history.isPending) return <SkeletonRows rows={3} columns={3} />;
  if (history.isError)
    return (
      <p role="alert" className="text-red-400 text-sm">
        {history.error.message}
      </p>
    );
  const { items, total, pageSize } = history.data;
  if (items.length === 0)
    return (
      <p data-testid="credit-history-empty" className="text-ink-muted text-sm">
        {m.historyEmpty}
      </p>
    );
  return (
    <div className="flex flex-col gap-3">
      <ul data-testid="credit-history" className="flex flex-col divide-y divide-line/60">
        {items.map((entry) => (
          <li key={entry.id} className="flex items-center justify-between gap-4 py-2 text-sm">
            <span className="text-ink">{creditReasonLabels[entry.reason] ?? entry.reason}</span>
            <span className="text-ink-muted">{formatDateTime(entry.createdAt)}</span>
            <span className={`font-medium ${entry.delta < 0 ? 'text-red-400' : 'text-emerald-400'}`}>
              {entry.delta > 0 ? `+${entry.delta}` : entry.delta}
            </span>
            <span className="w-24 text-right text-ink-muted">= {entry.balance}</span>
          </li>
        ))}
      </ul>
      {total > pageSize && <Pagination page={page} totalPages={Math.ceil(total / pageSize)} onPageChange={setPage} />}
    </div>
  );
}
