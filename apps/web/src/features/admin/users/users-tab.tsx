import {
  type AdminUserRow,
  adminPanelMessages,
  adminUserPageSchema,
  bulkActionPermissions,
  adminUserLabels as t,
} from '@canopy/contract';
import { useState } from 'react';
import { Button } from '../../../components/ui/index.ts';
import { useAdminCan } from '../admin-caller.ts';
import { useAdminList } from '../api/admin-list.ts';
import { useAdminSearch, useClampedPage } from '../api/admin-list-state.ts';
import { AdminListFrame } from '../components/admin-list-frame.tsx';
import { BulkDialog } from './bulk/bulk-dialog.tsx';
import { ManageUserDialog } from './manage/manage-user-dialog.tsx';
import { type Selection, toggleOne, togglePage } from './user-selection.ts';
import { UsersTable } from './users-table.tsx';

/**
 * The Users tab of /admin (admin document, sections 2–9): a searched, paged list; a row opens the manage-user
 * dialog; selected rows (kept across pages) go to the bulk dialog.
 */
export function UsersTab() {
  const can = useAdminCan();
  // The api refuses a bulk action to a caller lacking either permission: the selection is not offered then.
  const bulkAllowed = bulkActionPermissions.every(can);
  const { input, setInput, search, page, setPage } = useAdminSearch();
  const [selection, setSelection] = useState<Selection>(new Set());
  const [open, setOpen] = useState<AdminUserRow | null>(null);
  const [bulkOpen, setBulkOpen] = useState(false);
  const list = useAdminList({
    list: 'users',
    path: '/admin/all-users',
    schema: adminUserPageSchema,
    page,
    search,
    fallback: adminPanelMessages.fetchUsers,
  });
  const rows = list.data?.items ?? [];
  const pages = useClampedPage(page, setPage, list.data);

  return (
    <>
      <AdminListFrame
        testId="admin-users"
        search={{
          value: input,
          onChange: setInput,
          placeholder: t.searchPlaceholder,
          label: t.searchLabel,
          hint: t.searchHint,
        }}
        actions={
          bulkAllowed &&
          selection.size > 0 && (
            <>
              <Button variant="ghost" onClick={() => setSelection(new Set())}>
                {t.clearSelection}
              </Button>
              <Button data-testid="admin-users-bulk" onClick={() => setBulkOpen(true)}>
                {t.bulkButton(selection.size)}
              </Button>
            </>
          )
        }
        hasData={list.data !== undefined}
        error={list.error}
        page={page}
        totalPages={pages}
        onPageChange={setPage}
      >
        <UsersTable
          rows={rows}
          selection={selection}
          selectable={bulkAllowed}
          onToggle={(id) => setSelection((s) => toggleOne(s, id))}
          onTogglePage={() =>
            setSelection((s) =>
              togglePage(
                s,
                rows.map((r) => r.DiscordID),
              ),
            )
          }
          onOpen={setOpen}
        />
      </AdminListFrame>
      {open && (
        <ManageUserDialog discordId={open.DiscordID} name={open.DiscordUsername} onClose={() => setOpen(null)} />
      )}
      {bulkOpen && (
        <BulkDialog
          userIds={[...selection]}
          onClose={() => setBulkOpen(false)}
          onDone={() => {
            setSelection(new Set());
            setBulkOpen(false);
          }}
        />
      )}
    </>
  );
}
