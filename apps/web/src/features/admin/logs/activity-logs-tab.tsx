import { type AdminActivityLog, adminOverviewMessages as text } from '@canopy/contract';
import { useState } from 'react';
import { formatDateTime } from '../../../lib/format.ts';
import { useClampedPage } from '../api/admin-list-state.ts';
import { AdminListFrame, adminTable } from '../components/admin-list-frame.tsx';
import { ActorCell } from './actor-badge.tsx';
import { useActivityLogs } from './api/get-logs.ts';
import { detailPairs, detailsTitle, truncateText } from './log-details.ts';

/** The Activity Logs tab of /admin (admin document, section 2): a paged, read-only list, newest first. */
export function ActivityLogsTab() {
  const [page, setPage] = useState(1);
  const logs = useActivityLogs(page);
  const pages = useClampedPage(page, setPage, logs.data);
  const items = logs.data?.items ?? [];
  return (
    <AdminListFrame
      testId="admin-activity-logs"
      hasData={logs.data !== undefined}
      error={logs.error}
      page={page}
      totalPages={pages}
      onPageChange={setPage}
    >
      <div className={adminTable.wrap}>
        <table className={`${adminTable.table} max-sm:block`}>
          <thead className={`${adminTable.head} max-sm:sr-only`}>
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
          <tbody className={`${adminTable.body} max-sm:block`}>
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

const phoneCell = 'max-sm:block max-sm:p-0';

function LogRow({ log }: { log: AdminActivityLog }) {
  const pairs = detailPairs(log.details);
  return (
    // On a phone each row is a small card (time and actor, then action, then details) instead of a wide table.
    <tr
      className={`${adminTable.row} align-top max-sm:flex max-sm:flex-wrap max-sm:items-center max-sm:gap-x-3 max-sm:gap-y-1 max-sm:px-3 max-sm:py-2.5`}
      data-testid="activity-log-row"
    >
      <td className={`${adminTable.cell} ${phoneCell} whitespace-nowrap text-ink-muted tabular-nums`}>
        <time dateTime={log.timestamp}>{formatDateTime(log.timestamp)}</time>
      </td>
      <td
        className={`${adminTable.cell} ${phoneCell} whitespace-nowrap font-medium text-ink max-sm:order-last max-sm:w-full`}
      >
        {log.action}
      </td>
      <td className={`${adminTable.cell} ${phoneCell}`}>
        <ActorCell type={log.actorType} name={log.actorName} />
      </td>
      <td
        className={`${adminTable.cell} ${phoneCell} text-ink-muted max-sm:order-last max-sm:w-full`}
        title={detailsTitle(log.details)}
      >
        {/* Values wrap anywhere (long JSON has no spaces) and stop after two lines: the column takes the room left. */}
        <ul className="flex min-w-48 flex-col gap-0.5">
          {pairs.map((pair) => (
            <li key={pair.key} className="line-clamp-2 [overflow-wrap:anywhere]">
              <span className="text-ink-muted">{pair.key}:</span>{' '}
              <span className="text-ink">{truncateText(pair.value)}</span>
            </li>
          ))}
        </ul>
      </td>
    </tr>
  );
}
