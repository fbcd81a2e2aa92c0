import { type AdminActivityLog, adminOverviewMessages as text } from '@canopy/contract';
import { useState } from 'react';
import { formatDateTime } from '../../../lib/format.ts';
import { totalPages } from '../api/admin-list.ts';
import { AdminListFrame, adminTable } from '../components/admin-list-frame.tsx';
import { ActorCell } from './actor-badge.tsx';
import { useActivityLogs } from './api/get-logs.ts';
import { detailPairs, detailsTitle, truncateText } from './log-details.ts';

/** The Activity Logs tab of /admin (admin document, section 2): a paged, read-only list, newest first. */
export function ActivityLogsTab() {
  const [page, setPage] = useState(1);
  const logs = useActivityLogs(page);
  const items = logs.data?.items ?? [];
  return (
    <AdminListFrame
      testId="admin-activity-logs"
      loading={logs.isPending}
      error={logs.error}
      page={page}
      totalPages={totalPages(logs.data)}
      onPageChange={setPage}
    >
      <div className={adminTable.wrap}>
        <table className={adminTable.table}>
          <thead className={adminTable.head}>
            <tr>
              <th scope="col" className={adminTable.cell}>
                {text.logsTime}
              </th>
              <th scope="col" className={adminTable.cell}>
                {text.logsAction}
              </th>
              <th scope="col" className={adminTable.cell}>
                {text.logsActor}
              </th>
              <th scope="col" className={adminTable.cell}>
                {text.logsDetails}
              </th>
            </tr>
          </thead>
          <tbody className={adminTable.body}>
            {items.length === 0 ? (
              <tr>
                <td colSpan={4} className={adminTable.empty}>
                  {text.logsEmpty}
                </td>
              </tr>
            ) : (
              items.map((log, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: log entries have no id; a read-only page is replaced whole, never reordered.
                <LogRow key={`${log.timestamp}-${index}`} log={log} />
              ))
            )}
          </tbody>
        </table>
      </div>
    </AdminListFrame>
  );
}

function LogRow({ log }: { log: AdminActivityLog }) {
  const pairs = detailPairs(log.details);
  return (
    <tr className={`${adminTable.row} align-top`} data-testid="activity-log-row">
      <td className={`${adminTable.cell} whitespace-nowrap text-ink-muted tabular-nums`}>
        <time dateTime={log.timestamp}>{formatDateTime(log.timestamp)}</time>
      </td>
      <td className={`${adminTable.cell} whitespace-nowrap font-medium text-ink`}>{log.action}</td>
      <td className={adminTable.cell}>
        <ActorCell type={log.actorType} name={log.actorName} />
      </td>
      <td className={`${adminTable.cell} min-w-56 max-w-md text-ink-muted`} title={detailsTitle(log.details)}>
        <ul className="flex flex-col gap-0.5">
          {pairs.map((pair) => (
            <li key={pair.key} className="truncate">
              <span className="text-ink-muted">{pair.key}:</span>{' '}
              <span className="break-all text-ink">{truncateText(pair.value)}</span>
            </li>
          ))}
        </ul>
      </td>
    </tr>
  );
}
