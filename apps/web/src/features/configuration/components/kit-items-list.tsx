import { useState } from 'react';
import { Button, Pagination } from '../../../components/ui/index.ts';
import { pageSlice } from '../../../lib/pagination.ts';

export interface KitItemsListProps {
  items: readonly [number, number][];
  names: ReadonlyMap<number, string>;
  pageSize: number;
  onRemove: (itemId: number) => void;
}

/** The kit's items, a page at a time, each with its quantity and Remove. */
export function KitItemsList({ items, names, pageSize, onRemove }: KitItemsListProps) {
  const [page, setPage] = useState(1);
  const slice = pageSlice(items, page, pageSize);
  if (items.length === 0) return <p className="text-ink-muted text-sm">No items in the kit yet.</p>;
  return (
    <div className="flex flex-col gap-4">
      <ul aria-label="Kit items" className="divide-y divide-line rounded-md border border-line">
        {slice.items.map(([id, qty]) => (
          <li key={id} className="flex items-center justify-between gap-3 px-3 py-2 text-sm">
            <span className="min-w-0 truncate text-ink">
              {names.get(id) ?? `Item ${id}`} <span className="font-mono text-ink-muted">(ID {id})</span>
            </span>
            <span className="ml-auto shrink-0 font-mono text-ink">x{qty}</span>
            <Button variant="ghost" size="sm" aria-label={`Remove ${names.get(id) ?? id}`} onClick={() => onRemove(id)}>
              Remove
            </Button>
          </li>
        ))}
      </ul>
      <Pagination page={slice.page} totalPages={slice.totalPages} onPageChange={setPage} />
    </div>
  );
}
