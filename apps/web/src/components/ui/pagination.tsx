import { pageWindow } from '../../lib/pagination.ts';

export interface PaginationProps {
  page: number;
  totalPages: number;
  onPageChange: (page: number) => void;
}

const base = 'min-w-9 rounded-md px-3 py-1.5 text-sm transition-colors';
const idle = 'text-ink-muted hover:bg-surface-raised hover:text-ink disabled:pointer-events-none disabled:opacity-40';

/** Prev/Next plus a window of page numbers with first/last links and ellipses; nothing when there is one page. */
export function Pagination({ page, totalPages, onPageChange }: PaginationProps) {
  if (totalPages <= 1) return null;
  return (
    <nav aria-label="Pagination" className="flex flex-wrap items-center justify-center gap-1">
      <button
        type="button"
        className={`${base} ${idle}`}
        disabled={page <= 1}
        onClick={() => onPageChange(page - 1)}
        aria-label="Previous page"
      >
        Prev
      </button>
      {pageWindow(page, totalPages).map((item) =>
        typeof item === 'number' ? (
          <button
            key={item}
            type="button"
            aria-label={`Page ${item}`}
            aria-current={item === page ? 'page' : undefined}
            onClick={() => item !== page && onPageChange(item)}
            className={`${base} ${item === page ? 'bg-accent font-semibold text-accent-ink' : idle}`}
          >
            {item}
          </button>
        ) : (
          <span key={item} aria-hidden="true" className="px-1 text-ink-muted">
            …
          </span>
        ),
      )}
      <button
        type="button"
        className={`${base} ${idle}`}
        disabled={page >= totalPages}
        onClick={() => onPageChange(page + 1)}
        aria-label="Next page"
      >
        Next
      </button>
    </nav>
  );
}
