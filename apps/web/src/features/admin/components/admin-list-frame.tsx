import type { ReactNode } from 'react';
import { Pagination, SkeletonRows } from '../../../components/ui/index.ts';
import { useErrorToast } from '../../../hooks/use-error-toast.ts';

export interface AdminListFrameProps {
  /** data-testid of the frame ('admin-users', ...), so tests find one tab's list. */
  testId: string;
  /** Search box: shown when given (lists searched on the server: users, servers, codes). */
  search?: { value: string; onChange: (text: string) => void; placeholder: string; label: string; hint?: string };
  /** Buttons beside the search box (Create code, Bulk action). */
  actions?: ReactNode;
  /** A page has loaded (and stays on screen while the next loads or a reload fails). */
  hasData: boolean;
  /** The load failure shown in red (admin document, section 8): in place of the list, or above a loaded one. */
  error: Error | null;
  page: number;
  totalPages: number;
  onPageChange: (page: number) => void;
  /** The list itself: a table, shown when loaded. */
  children: ReactNode;
}

/** A failed admin load in red (admin document, section 8); the message falls back to `fallback`. */
export function AdminLoadError({ testId, error, fallback }: { testId: string; error: Error; fallback?: string }) {
  return (
    <p
      role="alert"
      data-testid={testId}
      className="rounded-md border border-red-500/40 bg-red-500/10 px-4 py-3 text-red-400 text-sm"
    >
      {error.message || fallback}
    </p>
  );
}

/**
 * The frame every admin list shares: optional search and actions on top, then a skeleton while the first page
 * loads, the error in red if the load failed (in place of the list when none was loaded yet), and the list with
 * its pager.
 */
export function AdminListFrame(props: AdminListFrameProps) {
  const { testId, search, actions, hasData, error, page, totalPages, onPageChange, children } = props;
  // Every failure is also a toast (admin document, section 8), besides the red text in place of the list.
  useErrorToast(error);
  return (
    <div data-testid={testId} className="flex flex-col gap-4">
      {(search || actions) && (
        <div className="flex flex-wrap items-center gap-3">
          {search && (
            <input
              type="search"
              aria-label={search.label}
              placeholder={search.placeholder}
              // What the box searches, when the placeholder is too short to say it all (a phone's width).
              title={search.hint}
              value={search.value}
              maxLength={100}
              onChange={(event) => search.onChange(event.target.value)}
              className="min-w-0 flex-1 basis-full rounded-md border border-line bg-canvas px-3 py-2 text-ink text-sm placeholder:text-slate-500 focus:border-accent sm:max-w-md sm:basis-auto"
            />
          )}
          {actions && <div className="ml-auto flex flex-wrap gap-2">{actions}</div>}
        </div>
      )}
      {error && <AdminLoadError testId="admin-list-error" error={error} />}
      {/* A failed background reload (a poll, a refetch after a write) keeps the list already on screen. */}
      {hasData ? (
        <>
          {children}
          <Pagination page={page} totalPages={totalPages} onPageChange={onPageChange} />
        </>
      ) : (
        !error && <SkeletonRows rows={5} columns={4} />
      )}
    </div>
  );
}

/** Common classes of an admin table, so every tab's table looks the same. */
export const adminTable = {
  // relative: an sr-only (absolute) header text stays inside the scroll box instead of widening the page.
  wrap: 'relative overflow-x-auto rounded-lg border border-line',
  table: 'w-full text-left text-sm',
  head: 'bg-surface-raised/60 text-ink-muted text-xs uppercase tracking-wide',
  body: 'divide-y divide-line/60',
  row: 'hover:bg-surface-raised/40',
  cell: 'px-3 py-2.5',
  empty: 'px-3 py-8 text-center text-ink-muted',
} as const;
