import { type BannedServerName, adminBanLabels as l } from '@canopy/contract';
import { Button } from '../../../components/ui/index.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { adminTable as t } from '../components/admin-list-frame.tsx';

export interface BannedServersTableProps {
  rows: readonly BannedServerName[];
  /** bans:manage: shows the Remove column. */
  canManage: boolean;
  onRemove: (name: string) => void;
}

// On a phone the banner and date go under the reason, so name, reason and Remove fit.
const wide = 'hidden sm:table-cell';

/** Banned server names with reason, who banned them and when, and Remove per row when permitted. */
export function BannedServersTable({ rows, canManage, onRemove }: BannedServersTableProps) {
  return (
    <div className={t.wrap}>
      <table className={t.table}>
        <thead className={t.head}>
          <tr>
            <th className={t.cell}>{l.serverName}</th>
            <th className={t.cell}>{l.reason}</th>
            <th className={`${t.cell} ${wide}`}>{l.bannedBy}</th>
            <th className={`${t.cell} ${wide}`}>{l.bannedAt}</th>
            {canManage && <th className={`${t.cell} text-right`}>{l.actions}</th>}
          </tr>
        </thead>
        <tbody className={t.body}>
          {rows.length === 0 && (
            <tr>
              <td colSpan={canManage ? 5 : 4} className={t.empty}>
                {l.noBannedServers}
              </td>
            </tr>
          )}
          {rows.map((row) => (
            <tr key={row.serverName} data-testid="banned-server-row" data-name={row.serverName} className={t.row}>
              <td className={`${t.cell} break-all font-medium text-ink`}>{row.serverName}</td>
              <td className={`${t.cell} ${row.reason ? 'text-ink' : 'text-ink-muted'}`}>
                <span className="break-words">{row.reason || l.noReason}</span>
                <span className="mt-1 block text-ink-muted text-xs sm:hidden">
                  {row.bannedBy} · {formatDateTime(row.bannedAt)}
                </span>
              </td>
              <td className={`${t.cell} ${wide}`}>{row.bannedBy}</td>
              <td className={`${t.cell} ${wide} whitespace-nowrap text-ink-muted`}>{formatDateTime(row.bannedAt)}</td>
              {canManage && (
                <td className={`${t.cell} text-right`}>
                  <Button size="sm" variant="secondary" onClick={() => onRemove(row.serverName)}>
                    {l.remove}
                  </Button>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
