import { type AdminActivityLog, adminAuditMessages as audit, adminOverviewMessages as text } from '@canopy/contract';
import { Button } from '../../../components/ui/index.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useAdminFilters } from '../api/admin-filters.ts';
import { useClampedPage } from '../api/admin-list-state.ts';
import { AdminListFrame, adminTable } from '../components/admin-list-frame.tsx';
import { ActivityLogFilterBar } from './activity-log-filters.tsx';
import { ActorCell } from './actor-badge.tsx';
import { useExportLogs } from './api/export-logs.ts';
import { noActivityLogFilters, useActivityLogs } from './api/get-logs.ts';
import { LogDetails } from './log-details-cell.tsx';

/**
 * The Activity Logs tab of /admin (admin document, section 2): a paged, read-only list, newest first, searched
 * and filtered on the server, and exported as CSV with the same filters (logs:view, as the tab itself).
 */
export function ActivityLogsTab() {
  const list = useAdminFilters(noActivityLogFilters);
  const { page, setPage, search, applied } = list;
  const logs = useActivityLogs(page, search, applied);
  const pages = useClampedPage(page, setPage, logs.data);
  const items = logs.data?.items ?? [];
  const exporter = useExportLogs();
  return (
    <AdminListFrame
      testId="admin-activity-logs"
      search={{
        value: list.input,
        onChange: list.setInput,
        placeholder: audit.searchPlaceholder,
        label: audit.searchLabel,
      }}
      actions={
        <Button
          variant="secondary"
          loading={exporter.isPending}
          onClick={() => exporter.mutate({ search, filters: applied })}
          data-testid="export-logs"
        >
          {audit.exportCsv}
        </Button>
      }
      hasData={logs.data !== undefined}
      error={logs.error}
      page={page}
      totalPages={pages}
      onPageChange={setPage}
    >
      <ActivityLogFilterBar
        filters={list.filters}
        onChange={list.setFilter}
        active={list.active}
        onClear={list.clear}
      />
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
                  {list.active ? audit.noMatch : text.logsEmpty}
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
      <td className={`${adminTable.cell} ${phoneCell} text-ink-muted max-sm:order-last max-sm:w-full`}>
        <LogDetails details={log.details} />
      </td>
    </tr>
  );
}
