import { type BanLog, adminCommonLabels as common, adminBanLabels as l } from '@canopy/contract';
import { Button } from '../../../components/ui/index.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { adminTable as t } from '../components/admin-list-frame.tsx';
import { banExpiryText } from './ban-display.ts';

export interface BanLogsTableProps {
  rows: readonly BanLog[];
  /** users:manage: active bans get an Unban button. */
  canUnban: boolean;
  onUnban: (row: BanLog) => void;
}

// Beside the admin sidebar the table is narrow: below 2xl the GrowID and Discord ID go under the username, below
// md who banned and the dates go under the reason.
const large = 'hidden 2xl:table-cell';
const medium = 'hidden md:table-cell';

/** The ban log: one row per ban, newest first, with Unban on the bans that still hold. */
export function BanLogsTable({ rows, canUnban, onUnban }: BanLogsTableProps) {
  const columns = canUnban ? 8 : 7;
  return (
    <div className={t.wrap}>
      <table className={t.table}>
        <thead className={t.head}>
          <tr>
            <th className={t.cell}>{l.discordUsername}</th>
            <th className={`${t.cell} ${large}`}>{l.growId}</th>
            <th className={`${t.cell} ${large}`}>{l.discordId}</th>
            <th className={`${t.cell} ${medium}`}>{l.bannedBy}</th>
            <th className={t.cell}>{l.reason}</th>
            <th className={`${t.cell} ${medium}`}>{l.bannedAt}</th>
            <th className={`${t.cell} ${medium}`}>{l.expires}</th>
            {canUnban && <th className={`${t.cell} text-right`}>{l.actions}</th>}
          </tr>
        </thead>
        <tbody className={t.body}>
          {rows.length === 0 && (
            <tr>
              <td colSpan={columns} className={t.empty}>
                {l.noBanLogs}
              </td>
            </tr>
          )}
          {rows.map((row) => (
            <tr key={row.id} data-testid="ban-log-row" data-active={row.active || undefined} className={t.row}>
              <td className={`${t.cell} font-medium text-ink`}>
                <span className="break-all">{row.discordUsername}</span>
                <span className="mt-1 flex flex-col font-normal text-ink-muted text-xs 2xl:hidden">
                  <span>{row.growId ?? common.none}</span>
                  <span className="break-all font-mono">{row.discordId}</span>
                </span>
              </td>
              <td className={`${t.cell} ${large}`}>{row.growId ?? common.none}</td>
              <td className={`${t.cell} ${large} font-mono text-ink-muted text-xs`}>{row.discordId}</td>
              <td className={`${t.cell} ${medium}`}>{row.bannedBy}</td>
              <td className={t.cell}>
                <span className="break-words">{row.reason}</span>
                <span className="mt-1 block text-ink-muted text-xs md:hidden">
                  {row.bannedBy} · {formatDateTime(row.bannedAt)} → {banExpiryText(row.expires)}
                </span>
              </td>
              <td className={`${t.cell} ${medium} text-ink-muted`}>{formatDateTime(row.bannedAt)}</td>
              <td className={`${t.cell} ${medium}`}>{banExpiryText(row.expires)}</td>
              {canUnban && (
                <td className={`${t.cell} text-right`}>
                  {row.active ? (
                    <Button size="sm" variant="secondary" onClick={() => onUnban(row)}>
                      {l.unban}
                    </Button>
                  ) : (
                    <span className="text-ink-muted text-xs">{l.ended}</span>
                  )}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
