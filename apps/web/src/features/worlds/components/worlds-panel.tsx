import { useState } from 'react';
import { Card, ConfirmDialog, Input, Pagination } from '../../../components/ui/index.ts';
import { useErrorToast } from '../../../hooks/use-error-toast.ts';
import { pageSlice } from '../../../lib/pagination.ts';
import { useRegisteredProfile } from '../../../lib/profile-query.ts';
import { useDeleteWorld } from '../api/delete-world.ts';
import { useWorlds } from '../api/get-worlds.ts';
import { useToggleWorldLock } from '../api/toggle-world-lock.ts';
import { filterWorlds, WORLDS_PAGE_SIZE } from '../world-list.ts';
import { WorldEditor } from './world-editor.tsx';
import { WorldsTable } from './worlds-table.tsx';

/** The worlds table with its search, paging, lock toggles, delete confirmation and editor. */
export function WorldsPanel() {
  const { profile } = useRegisteredProfile();
  const userId = profile.id;
  const worlds = useWorlds(userId);
  const lock = useToggleWorldLock(userId);
  const remove = useDeleteWorld(userId);
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  useErrorToast(worlds.error);

  const all = worlds.data?.worlds ?? [];
  const matches = filterWorlds(all, search);
  const shown = pageSlice(matches, page, WORLDS_PAGE_SIZE);

  return (
    <Card
      heading="Worlds"
      actions={
        worlds.data && (
          <span data-testid="worlds-count" className="text-ink-muted text-sm">
            {matches.length === all.length ? `${all.length} worlds` : `${matches.length} of ${all.length} worlds`}
          </span>
        )
      }
    >
      <div className="flex flex-col gap-4">
        <Input
          label="Search worlds"
          type="search"
          placeholder="Name or owner"
          data-testid="worlds-search"
          value={search}
          onChange={(event) => {
            setSearch(event.target.value);
            setPage(1);
          }}
        />
        {worlds.isError ? (
          <p data-testid="worlds-error" role="alert" className="py-6 text-center text-red-400">
            {worlds.error.message}
          </p>
        ) : (
          <WorldsTable
            rows={shown.items}
            loading={worlds.isPending}
            emptyBecauseOfSearch={all.length > 0}
            onEdit={setEditing}
            onDelete={setDeleting}
            onToggleLock={(name, locked) => lock.mutate({ name, locked })}
          />
        )}
        <Pagination page={shown.page} totalPages={shown.totalPages} onPageChange={setPage} />
      </div>
      {editing && <WorldEditor userId={userId} name={editing} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete World"
        message={`Delete the world ${deleting}? Its tiles and settings are removed for good.`}
        confirmLabel="Delete"
        tone="danger"
        loading={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          if (deleting) remove.mutate(deleting, { onSettled: () => setDeleting(null) });
        }}
      />
    </Card>
  );
}
