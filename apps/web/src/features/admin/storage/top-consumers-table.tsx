import { adminCommonLabels as common, adminOverviewMessages as text } from '@canopy/contract';
import { formatMB } from '../../../lib/format.ts';
import { adminTable } from '../components/admin-list-frame.tsx';
import { type ConsumerRow, formatPercent } from './storage-view.ts';

/** The top consumers with exact numbers, for screen readers and for anyone who wants more than bar lengths. */
export function TopConsumersTable({ rows }: { rows: ConsumerRow[] }) {
  return (
    <div className={adminTable.wrap}>
      <table className={adminTable.table} data-testid="storage-top-table">
        <caption className="sr-only">{text.storageTopConsumers}</caption>
        <thead className={adminTable.head}>
          <tr>
            <th scope="col" className={adminTable.cell}>
              {common.rank}
            </th>
            <th scope="col" className={adminTable.cell}>
              {text.storageAccountColumn}
            </th>
            <th scope="col" className={`${adminTable.cell} text-right`}>
              {text.storageUsed}
            </th>
            <th scope="col" className={`${adminTable.cell} text-right`}>
              {text.storageLimit}
            </th>
            <th scope="col" className={`${adminTable.cell} text-right`}>
              {common.percent}
            </th>
          </tr>
        </thead>
        <tbody className={adminTable.body}>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={5} className={adminTable.empty}>
                {text.storageNoConsumers}
              </td>
            </tr>
          ) : (
            rows.map((row, index) => (
              <tr key={row.key} className={adminTable.row}>
                <td className={`${adminTable.cell} text-ink-muted tabular-nums`}>{index + 1}</td>
                <th
                  scope="row"
                  className={`${adminTable.cell} max-w-40 truncate font-medium text-ink`}
                  title={row.name}
                >
                  {row.name}
                </th>
                <td className={`${adminTable.cell} text-right text-ink tabular-nums`}>{formatMB(row.usedMB)}</td>
                <td className={`${adminTable.cell} text-right text-ink-muted tabular-nums`}>{formatMB(row.limitMB)}</td>
                <td className={`${adminTable.cell} text-right text-ink tabular-nums`}>{formatPercent(row.percent)}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
