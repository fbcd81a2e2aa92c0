import { type AdminServerRow, adminServerLabels as l, type PowerAction } from '@canopy/contract';
import { Button, StatusPill } from '../../../components/ui/index.ts';
import { adminTable as t } from '../components/admin-list-frame.tsx';
import { serverRowButtons } from './server-row-actions.ts';

export interface ServersTableProps {
  rows: readonly AdminServerRow[];
  /** True when a search is applied (decides which empty text shows). */
  searching: boolean;
  /** Names whose action the api has not answered yet. */
  inFlight: ReadonlySet<string>;
  canManage: boolean;
  canDelete: boolean;
  onAction: (name: string, action: PowerAction) => void;
  onDelete: (name: string) => void;
}

// On a phone the status, owner and players go under the name, so the name and a 2×2 block of buttons fit.
const wide = 'hidden sm:table-cell';
const powerActions: { action: PowerAction; label: string }[] = [
  { action: 'start', label: l.start },
  { action: 'stop', label: l.stop },
  { action: 'restart', label: l.restart },
];

/** The servers of one page with their status and, as permitted, Start, Stop, Restart and Delete per row. */
export function ServersTable({
  rows,
  searching,
  inFlight,
  canManage,
  canDelete,
  onAction,
  onDelete,
}: ServersTableProps) {
  const hasActions = canManage || canDelete;
  const columns = hasActions ? 5 : 4;
  return (
    <div className={t.wrap}>
      <table className={t.table}>
        <thead className={t.head}>
          <tr>
            <th className={t.cell}>{l.name}</th>
            <th className={`${t.cell} ${wide}`}>{l.owner}</th>
            <th className={`${t.cell} ${wide}`}>{l.status}</th>
            <th className={`${t.cell} ${wide} text-right`}>{l.players}</th>
            {hasActions && <th className={`${t.cell} text-right`}>{l.actions}</th>}
          </tr>
        </thead>
        <tbody className={t.body}>
          {rows.length === 0 && (
            <tr>
              <td colSpan={columns} className={t.empty} data-testid="admin-servers-empty">
                {searching ? l.noServersMatch : l.noServers}
              </td>
            </tr>
          )}
          {rows.map((row) => {
            const enabled = serverRowButtons(row.status, inFlight.has(row.name));
            return (
              <tr key={row.name} data-testid="admin-server-row" data-name={row.name} className={t.row}>
                <td className={`${t.cell} font-medium text-ink`}>
                  <span className="break-words [overflow-wrap:anywhere]">{row.name}</span>
                  <span className="mt-1.5 flex flex-col items-start gap-1 font-normal text-ink-muted text-xs sm:hidden">
                    <StatusPill status={row.status} />
                    {row.ownerGrowId ?? l.noOwnerGrowId} · {l.players} {row.players}
                  </span>
                </td>
                <td className={`${t.cell} ${wide} ${row.ownerGrowId ? 'text-ink' : 'text-ink-muted'}`}>
                  {row.ownerGrowId ?? l.noOwnerGrowId}
                </td>
                <td className={`${t.cell} ${wide}`} data-testid="admin-server-status">
                  <StatusPill status={row.status} />
                </td>
                <td className={`${t.cell} ${wide} text-right tabular-nums`}>{row.players}</td>
                {hasActions && (
                  <td className={t.cell}>
                    <div className="grid grid-cols-2 gap-1.5 sm:flex sm:flex-wrap sm:justify-end">
                      {canManage &&
                        powerActions.map(({ action, label }) => (
                          <Button
                            key={action}
                            size="sm"
                            variant="secondary"
                            disabled={!enabled[action]}
                            onClick={() => onAction(row.name, action)}
                          >
                            {label}
                          </Button>
                        ))}
                      {canDelete && (
                        <Button
                          size="sm"
                          variant="danger"
                          disabled={!enabled.delete}
                          onClick={() => onDelete(row.name)}
                        >
                          {l.delete}
                        </Button>
                      )}
                    </div>
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
