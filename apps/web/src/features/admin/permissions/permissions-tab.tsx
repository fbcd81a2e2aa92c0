import { type AdminAccount, adminRoleLabels as labels } from '@canopy/contract';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ui/index.ts';
import { useRegisteredProfile } from '../../../lib/profile-query.ts';
import { useClampedPage } from '../api/admin-list-state.ts';
import { AdminListFrame } from '../components/admin-list-frame.tsx';
import { AdminsTable } from './admins-table.tsx';
import { useAdmins, useRoleMove } from './api/admins-api.ts';
import { PermissionEditor } from './permission-editor.tsx';
import type { AdminRowAction } from './permission-logic.ts';
import { PromoteForm } from './promote-form.tsx';

/**
 * The Permissions tab of /admin (super admins only, admin document, sections 2, 4 and 6): promote a user by
 * Discord ID, the paged administrators with their role moves, and the permission editor.
 */
export function PermissionsTab() {
  const { profile } = useRegisteredProfile();
  const [page, setPage] = useState(1);
  const [removing, setRemoving] = useState<AdminAccount | null>(null);
  const [editing, setEditing] = useState<AdminAccount | null>(null);
  const list = useAdmins(page);
  const move = useRoleMove();
  const pages = useClampedPage(page, setPage, list.data);

  const onAction = (action: AdminRowAction, admin: AdminAccount) => {
    if (action === 'edit') setEditing(admin);
    else if (action === 'remove') setRemoving(admin);
    else move.mutate({ move: action, id: admin.id });
  };

  return (
    <div className="flex flex-col gap-6">
      <PromoteForm />
      <AdminListFrame
        testId="admin-admins"
        hasData={list.data !== undefined}
        error={list.error}
        page={page}
        totalPages={pages}
        onPageChange={setPage}
      >
        <AdminsTable
          admins={list.data?.items ?? []}
          selfId={profile.id}
          onAction={onAction}
          busyId={move.isPending ? (move.variables?.id ?? null) : null}
        />
      </AdminListFrame>
      <ConfirmDialog
        open={removing !== null}
        title={labels.removeTitle}
        message={labels.removeConfirm(removing?.username ?? '')}
        confirmLabel={labels.removeAdmin}
        tone="danger"
        loading={move.isPending}
        onCancel={() => setRemoving(null)}
        onConfirm={() =>
          removing && move.mutate({ move: 'remove', id: removing.id }, { onSettled: () => setRemoving(null) })
        }
      />
      <PermissionEditor admin={editing} onClose={() => setEditing(null)} />
    </div>
  );
}
