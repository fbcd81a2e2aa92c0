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

type ConfirmedMove = Exclude<AdminRowAction, 'edit'>;

/** What each role move's confirmation says. */
const confirmText: Record<ConfirmedMove, { title: string; message: (who: string) => string; confirm: string }> = {
  remove: { title: labels.removeTitle, message: labels.removeConfirm, confirm: labels.removeAdmin },
  promoteSuper: { title: labels.promoteSuperTitle, message: labels.promoteSuperConfirm, confirm: labels.promoteSuper },
  demoteSuper: { title: labels.demoteSuperTitle, message: labels.demoteSuperConfirm, confirm: labels.demoteSuper },
};

/**
 * The Permissions tab of /admin (super admins only, admin document, sections 2, 4 and 6): promote a user by
 * Discord ID, the paged administrators with their role moves, and the permission editor.
 */
export function PermissionsTab() {
  const { profile } = useRegisteredProfile();
  const [page, setPage] = useState(1);
  // A role move waiting for the admin's confirmation (every move but Edit asks first).
  const [confirming, setConfirming] = useState<{ move: ConfirmedMove; admin: AdminAccount } | null>(null);
  const [editing, setEditing] = useState<AdminAccount | null>(null);
  const list = useAdmins(page);
  const move = useRoleMove();
  const pages = useClampedPage(page, setPage, list.data);

  const onAction = (action: AdminRowAction, admin: AdminAccount) => {
    if (action === 'edit') setEditing(admin);
    else setConfirming({ move: action, admin });
  };
  const dialog = confirming && confirmText[confirming.move];

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
        open={confirming !== null}
        title={dialog?.title ?? ''}
        message={confirming && dialog ? dialog.message(confirming.admin.username) : ''}
        confirmLabel={dialog?.confirm ?? ''}
        tone={confirming?.move === 'remove' ? 'danger' : 'primary'}
        loading={move.isPending}
        onCancel={() => setConfirming(null)}
        onConfirm={() =>
          confirming &&
          move.mutate({ move: confirming.move, id: confirming.admin.id }, { onSettled: () => setConfirming(null) })
        }
      />
      <PermissionEditor admin={editing} onClose={() => setEditing(null)} />
    </div>
  );
}
