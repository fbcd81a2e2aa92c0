import { ITEM_SEARCH_DEBOUNCE_MS, type Item, itemMessages } from '@canopy/contract';
import { useState } from 'react';
import { Card, Pagination, SkeletonRows } from '../../../components/ui/index.ts';
import { useErrorToast } from '../../../hooks/use-error-toast.ts';
import { useDebouncedValue } from '../../../lib/use-debounced-value.ts';
import { useItems } from '../api/get-items.ts';
import { emptyItemFilters, type ItemFilters, itemPageCount, resultSummary } from '../item-filters.ts';
import { ItemPreview } from './item-preview.tsx';
import { ItemsFilterBar } from './items-filter-bar.tsx';
import { ItemsGrid } from './items-grid.tsx';
import { ServerIp } from './server-ip.tsx';

/** The Item Database (/items): search and filter the item database, preview an item's sprite. */
export function ItemsPage() {
  const [filters, setFilters] = useState<ItemFilters>(emptyItemFilters);
  const [open, setOpen] = useState<Item | null>(null);
  // Only the typed name waits; a changed filter searches at once.
  const name = useDebouncedValue(filters.name, ITEM_SEARCH_DEBOUNCE_MS);
  // The page belongs to the name it was chosen under: a new name starts at page 1 once it has settled.
  // Going back to page 1 on the keystroke instead showed page 1 of the old search for the 500 ms wait.
  const [paging, setPaging] = useState({ name, page: 1 });
  const page = paging.name === name ? paging.page : 1;
  const setPage = (next: number) => setPaging({ name, page: next });
  const items = useItems({ ...filters, name }, page);
  const total = items.data?.total ?? 0;
  useErrorToast(items.error);

  return (
    <section className="flex flex-col gap-6">
      <header className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="font-bold text-2xl text-ink">Item Database</h1>
          <p className="mt-1 text-ink-muted">Search every item of the game and preview its sprite.</p>
        </div>
        <ServerIp />
      </header>
      <Card
        heading="Items"
        actions={
          items.data && (
            <span data-testid="items-count" className="text-ink-muted text-sm">
              {resultSummary(total, items.data.page, items.data.pageSize)}
            </span>
          )
        }
      >
        <div className="flex flex-col gap-4">
          <ItemsFilterBar
            filters={filters}
            onChange={(next) => {
              const filtered =
                next.rarity !== filters.rarity ||
                next.clothingType !== filters.clothingType ||
                next.itemKind !== filters.itemKind;
              setFilters(next);
              if (filtered) setPage(1);
            }}
          />
          {items.isError ? (
            <p data-testid="items-error" role="alert" className="py-10 text-center text-red-400">
              {items.error.message || itemMessages.fetchFailed}
            </p>
          ) : items.isPending ? (
            <SkeletonRows rows={6} />
          ) : (
            <div className={items.isPlaceholderData ? 'opacity-60 transition-opacity' : ''}>
              <ItemsGrid items={items.data.items} onOpen={setOpen} />
            </div>
          )}
          <Pagination
            page={page}
            totalPages={items.data ? itemPageCount(total, items.data.pageSize) : 1}
            onPageChange={setPage}
          />
        </div>
      </Card>
      <ItemPreview item={open} onClose={() => setOpen(null)} />
    </section>
  );
}
