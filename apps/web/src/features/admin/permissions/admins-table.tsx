import { type AdminAccount, adminPermissions, adminRoleMessages, adminRoleLabels as labels } from '@canopy/contract';
import { Button } from '../../../components/ui/index.ts';
import { adminTable } from '../components/admin-list-frame.tsx';
import { type AdminRowAction, rowActions } from './permission-logic.ts';

export interface AdminsTableProps {
  admins: AdminAccount[];
  /** The signed-in super admin: their own row cannot be changed. */
  selfId: string;
  onAction: (action: AdminRowAction, admin: AdminAccount) => void;
  /** The row whose role change is on its way. */
  busyId: string | null;
}

const actionLabel: Record<AdminRowAction, string> = {
  promoteSuper: labels.promoteSuper,
  demoteSuper: labels.demoteSuper,
  edit: labels.editPermissions,
  remove: labels.removeAdmin,
};

function RoleBadge({ superAdmin }: { superAdmin: boolean }) {
  const tone = superAdmin
    ? 'bg-violet-500/15 text-violet-300 ring-violet-500/40'
    : 'bg-sky-500/15 text-sky-300 ring-sky-500/40';
  return (
    <span className={`whitespace-nowrap rounded-full px-2.5 py-0.5 font-semibold text-xs ring-1 ring-inset ${tone}`}>
      {superAdmin ? labels.roleSuper : labels.roleAdmin}
    </span>
  );
}

/** The Permissions tab's list of administrators with the role moves of each row. */
export function AdminsTable({ admins, selfId, onAction, busyId }: AdminsTableProps) {
  return (
    <div className={adminTable.wrap}>
      <table className={adminTable.table}>
        <thead className={adminTable.head}>
          <tr>
            {labels.columns.map((column, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: fixed columns; the last has no title
              <th key={index} scope="col" className={adminTable.cell}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className={adminTable.body}>
          {admins.length === 0 && (
            <tr>
              <td colSpan={labels.columns.length} className={adminTable.empty}>
                {labels.noAdmins}
              </td>
            </tr>
          )}
          {admins.map((admin) => {
            const { actions, disabled } = rowActions(admin, selfId);
            return (
              <tr key={admin.id} data-testid="admin-account-row" data-id={admin.id} className={adminTable.row}>
                <td className={adminTable.cell}>
                  <div className="font-medium text-ink">{admin.username}</div>
                  <div className="font-mono text-ink-muted text-xs">{admin.id}</div>
                </td>
                <td className={adminTable.cell}>{admin.growId ?? '—'}</td>
                <td className={adminTable.cell}>
                  <RoleBadge superAdmin={admin.isSuperAdmin} />
                </td>
                <td className={`${adminTable.cell} whitespace-nowrap tabular-nums`}>
                  {admin.isSuperAdmin
                    ? labels.allPermissions
                    : labels.permissionCount(admin.permissions.length, adminPermissions.length)}
                </td>
                <td className={adminTable.cell}>
                  <div className="flex flex-wrap justify-end gap-1.5">
                    {actions.map((action) => (
                      <Button
                        key={action}
                        size="sm"
                        variant={action === 'remove' ? 'danger' : 'secondary'}
                        disabled={disabled || busyId === admin.id}
                        title={disabled ? adminRoleMessages.cannotModifySelf : undefined}
                        onClick={() => onAction(action, admin)}
                      >
                        {actionLabel[action]}
                      </Button>
                    ))}
                  </div>
                  {disabled && (
                    <p data-testid="admin-self-note" className="mt-1 text-right text-ink-muted text-xs">
                      {adminRoleMessages.cannotModifySelf}
                    </p>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
