import {
  type AdminAccount,
  adminPermissions,
  adminRoleMessages,
  adminCommonLabels as common,
  adminRoleLabels as labels,
} from '@canopy/contract';
import { Badge, Button } from '../../../components/ui/index.ts';
import { adminTable } from '../components/admin-list-frame.tsx';
import { StackedTable, stackedTable as stacked, stackedCell, stackedRow } from '../components/stacked-table.tsx';
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
  return <Badge tone={superAdmin ? 'special' : 'info'}>{superAdmin ? labels.roleSuper : labels.roleAdmin}</Badge>;
}

const col = labels.column;
const headers = [col.admin, col.growId, col.role, col.permissions, ''];
const cell = stackedCell;

/** The Permissions tab's list of administrators with the role moves of each row. */
export function AdminsTable({ admins, selfId, onAction, busyId }: AdminsTableProps) {
  return (
    <StackedTable headers={headers} empty={labels.noAdmins} isEmpty={admins.length === 0}>
      {admins.map((admin) => {
        const { actions, disabled } = rowActions(admin, selfId);
        return (
          <tr key={admin.id} data-testid="admin-account-row" data-id={admin.id} className={stackedRow}>
            <td data-label={col.admin} className={`${cell} ${stacked.wide}`}>
              <div className="font-medium text-ink">{admin.username}</div>
              <div className="font-mono text-ink-muted text-xs">{admin.id}</div>
            </td>
            <td data-label={col.growId} className={cell}>
              {admin.growId ?? common.none}
            </td>
            <td data-label={col.role} className={cell}>
              <RoleBadge superAdmin={admin.isSuperAdmin} />
            </td>
            <td data-label={col.permissions} className={`${cell} whitespace-nowrap tabular-nums`}>
              {admin.isSuperAdmin
                ? labels.allPermissions
                : labels.permissionCount(admin.permissions.length, adminPermissions.length)}
            </td>
            <td className={`${adminTable.cell} max-xl:col-span-full max-xl:p-0`}>
              <div className="flex flex-wrap justify-end gap-1.5 max-xl:justify-start">
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
                <p data-testid="admin-self-note" className="mt-1 text-right text-ink-muted text-xs max-xl:text-left">
                  {adminRoleMessages.cannotModifySelf}
                </p>
              )}
            </td>
          </tr>
        );
      })}
    </StackedTable>
  );
}
