import { type CustomItem, customItemsMessages as t } from '@canopy/contract';
import { useEffect, useState } from 'react';
import {
  Button,
  Card,
  ConfirmDialog,
  Input,
  Pagination,
  SkeletonRows,
  useToast,
} from '../../../components/ui/index.ts';
import { useErrorToast } from '../../../hooks/use-error-toast.ts';
import { useAllItems } from '../../../lib/all-items-query.ts';
import { pageSlice } from '../../../lib/pagination.ts';
import { useRegisteredProfile } from '../../../lib/profile-query.ts';
import { useCustomItems, useSaveCustomItems } from '../api/custom-items.ts';
import { addNewItem, CUSTOM_ITEMS_PAGE_SIZE, searchCustomItems } from '../custom-items-logic.ts';
import { ApplyNote } from './apply-note.tsx';
import { CustomItemCard } from './custom-item-card.tsx';
import { ReloadLatest } from './reload-latest.tsx';

/** The Custom Items tab: search, Add New Item, expandable cards (5 per page), Save Changes & Restart Server. */
export function CustomItemsTab() {
  const { profile } = useRegisteredProfile();
  const userId = profile.id;
  const toast = useToast();
  const saved = useCustomItems(userId);
  const database = useAllItems();
  const save = useSaveCustomItems(userId);
  const [draft, setDraft] = useState<CustomItem[] | null>(null);
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [expanded, setExpanded] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<number | null>(null);
  useErrorToast(saved.error);

  // The draft starts from the saved list and is replaced when a save brings a fresh one.
  useEffect(() => {
    if (saved.data) setDraft(saved.data.items);
  }, [saved.data]);

  const items = draft ?? [];
  const matches = searchCustomItems(items, search);
  const shown = pageSlice(matches, page, CUSTOM_ITEMS_PAGE_SIZE);

  const add = () => {
    const result = addNewItem(
      items,
      (database.data ?? []).map((i) => i.item_id),
    );
    if (!result.ok) return toast.error(result.error);
    const next = [...items, result.item];
    setDraft(next);
    setSearch('');
    setExpanded(next.length - 1);
    setPage(Math.ceil(next.length / CUSTOM_ITEMS_PAGE_SIZE));
  };

  return (
    <Card
      heading="Custom Items"
      actions={
        <Button onClick={add} disabled={!draft || database.isPending} data-testid="custom-items-add">
          Add New Item
        </Button>
      }
    >
      <div className="flex flex-col gap-4">
        <Input
          label="Search custom items"
          type="search"
          placeholder="Name or ID"
          value={search}
          data-testid="custom-items-search"
          onChange={(e) => {
            setSearch(e.target.value);
            setPage(1);
          }}
        />
        {saved.isError ? (
          <p role="alert" className="py-6 text-center text-red-400">
            {saved.error.message}
          </p>
        ) : !draft ? (
          <SkeletonRows rows={3} />
        ) : shown.items.length === 0 ? (
          <p className="py-6 text-center text-ink-muted">
            {items.length ? 'No custom items match your search.' : 'No custom items yet. Add one to get started.'}
          </p>
        ) : (
          <ul className="flex flex-col gap-3">
            {shown.items.map(({ item, index }) => (
              <CustomItemCard
                key={index}
                item={item}
                expanded={expanded === index}
                onToggle={() => setExpanded(expanded === index ? null : index)}
                onChange={(next) => setDraft(items.map((old, i) => (i === index ? next : old)))}
                onDelete={() => setDeleting(index)}
              />
            ))}
          </ul>
        )}
        <Pagination page={shown.page} totalPages={shown.totalPages} onPageChange={setPage} />
        <div className="flex flex-col gap-2 border-line border-t pt-4 sm:flex-row sm:justify-end">
          <ReloadLatest
            error={save.error}
            onReload={() => {
              save.reset();
              void saved.refetch();
            }}
            testId="custom-items-reload"
          />
          <ApplyNote />
          <Button
            onClick={() => draft && saved.data && save.mutate({ items: draft, version: saved.data.version })}
            loading={save.isPending}
            disabled={!draft}
            data-testid="custom-items-save"
            className="w-full sm:w-auto"
          >
            Save Changes &amp; Restart Server
          </Button>
        </div>
      </div>
      <ConfirmDialog
        open={deleting !== null}
        title="Delete Item"
        message={t.confirmDelete}
        confirmLabel="Delete"
        tone="danger"
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          setDraft(items.filter((_, i) => i !== deleting));
          setExpanded(null);
          setDeleting(null);
        }}
      />
    </Card>
  );
}
