import { type AdminUserRow, adminUserLabels as t } from '@canopy/contract';
import { useEffect, useRef } from 'react';
import { Button } from '../../../components/ui/index.ts';
import { formatMB } from '../../../lib/format.ts';
import { adminTable } from '../components/admin-list-frame.tsx';
import { PlanBadge, StatusBadges } from './user-badges.tsx';
import { pagePartlySelected, pageSelected, type Selection } from './user-selection.ts';

export interface UsersTableProps {
  rows: readonly AdminUserRow[];
  selection: Selection;
  /** False without users:bulk_actions: no select boxes at all. */
  selectable: boolean;
  onToggle: (discordId: string) => void;
  onTogglePage: () => void;
  onOpen: (user: AdminUserRow) => void;
}

const c = adminTable.cell;
// On a phone only the box, the user and the Manage button keep a column; the rest goes under the name. GrowID
// and server keep theirs from 2xl: below it the panel's sidebars leave too little width for seven columns of
// names that do not wrap, so they go under the name too.
const wide = 'hidden md:table-cell';
const wider = 'hidden 2xl:table-cell';
const subLine = 'mt-1 max-w-48 truncate text-ink-muted text-xs';
const box = 'size-4 accent-(--color-accent)';

/** The header box, in the mixed state when part of the page is selected. */
function PageBox({ checked, mixed, onChange }: { checked: boolean; mixed: boolean; onChange: () => void }) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = mixed;
  }, [mixed]);
  return (
    <input ref={ref} type="checkbox" aria-label={t.selectPage} className={box} checked={checked} onChange={onChange} />
  );
}

/** One page of users; a click on a row (outside its select box) opens the manage-user dialog. */
export function UsersTable({ rows, selection, selectable, onToggle, onTogglePage, onOpen }: UsersTableProps) {
  const ids = rows.map((r) => r.DiscordID);
  const columns = selectable ? 8 : 7;
  return (
    <div className={adminTable.wrap}>
      <table data-testid="admin-users-table" className={adminTable.table}>
        <thead className={adminTable.head}>
          <tr>
            {selectable && (
              <th className={`${c} w-8`}>
                <PageBox
                  checked={pageSelected(selection, ids)}
                  mixed={pagePartlySelected(selection, ids)}
                  onChange={onTogglePage}
                />
              </th>
            )}
            <th className={c}>{t.columns.user}</th>
            <th className={`${c} ${wider}`}>{t.columns.growId}</th>
            <th className={`${c} ${wider}`}>{t.columns.server}</th>
            <th className={`${c} ${wide}`}>{t.columns.plan}</th>
            <th className={`${c} ${wide}`}>{t.columns.storage}</th>
            <th className={`${c} ${wide}`}>{t.columns.status}</th>
            <th className={c}>
              <span className="sr-only">{t.manage}</span>
            </th>
          </tr>
        </thead>
        <tbody className={adminTable.body}>
          {rows.length === 0 && (
            <tr>
              <td colSpan={columns} className={adminTable.empty}>
                {t.noUsers}
              </td>
            </tr>
          )}
          {rows.map((user) => (
            <tr
              key={user.DiscordID}
              data-testid="admin-user-row"
              data-id={user.DiscordID}
              data-banned={user.IsBanned || undefined}
              onClick={() => onOpen(user)}
              className={`${adminTable.row} cursor-pointer`}
            >
              {selectable && (
                // The box's own cell: a click here selects, it does not open the dialog.
                // biome-ignore lint/a11y/useKeyWithClickEvents: only stops the row's click; the box has its own keys
                <td className={c} onClick={(event) => event.stopPropagation()}>
                  <input
                    type="checkbox"
                    aria-label={t.selectUser(user.DiscordUsername)}
                    className={box}
                    checked={selection.has(user.DiscordID)}
                    onChange={() => onToggle(user.DiscordID)}
                  />
                </td>
              )}
              <td className={c}>
                <span className="block max-w-48 truncate font-medium text-ink" title={user.DiscordUsername}>
                  {user.DiscordUsername}
                </span>
                <span className="block text-ink-muted text-xs tabular-nums">{user.DiscordID}</span>
                <span className={`${subLine} block md:hidden`} title={user.ServerName ?? undefined}>
                  {user.GrowID ?? t.none} · {user.ServerName ?? t.none} · {user.AccountType}
                </span>
                <span className={`${subLine} hidden md:block 2xl:hidden`} title={user.ServerName ?? undefined}>
                  {user.GrowID ?? t.none} · {user.ServerName ?? t.none}
                </span>
                <span className="mt-1 block md:hidden">
                  <StatusBadges user={user} />
                </span>
              </td>
              <td className={`${c} ${wider}`}>{user.GrowID ?? t.none}</td>
              <td className={`${c} ${wider}`}>
                {/* A long name is cut with an ellipsis (the whole of it in the title), never broken mid-word. */}
                <span className="block max-w-48 truncate" title={user.ServerName ?? undefined}>
                  {user.ServerName ?? t.none}
                </span>
              </td>
              <td className={`${c} ${wide}`}>
                <PlanBadge plan={user.AccountType} />
              </td>
              <td className={`${c} ${wide} whitespace-nowrap tabular-nums`}>
                {t.storageUsage(formatMB(user.StorageUsedMB), formatMB(user.StorageLimitMB))}
              </td>
              <td className={`${c} ${wide}`}>
                <StatusBadges user={user} />
              </td>
              <td className={`${c} text-right`}>
                <Button
                  size="sm"
                  variant="secondary"
                  onClick={(event) => {
                    event.stopPropagation();
                    onOpen(user);
                  }}
                >
                  {t.manage}
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
