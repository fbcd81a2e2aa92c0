import { type AdminRedeemCode, adminContentLabels as labels } from '@canopy/contract';
import { Button } from '../../../components/ui/index.ts';
import { adminTable } from '../components/admin-list-frame.tsx';
import { StackedTable, stackedCellOf, stackedRowOf, stackedTables } from '../components/stacked-table.tsx';
import { CodeStatusBadge } from './code-status-badge.tsx';
import { CopyCodeButton } from './copy-code-button.tsx';

export interface CodesTableProps {
  codes: AdminRedeemCode[];
  /** Given only to admins holding codes:manage. */
  onDelete?: (code: string) => void;
}

const col = labels.column;
const headers = [col.code, col.type, col.amount, col.claimed, col.expiry, col.status, ''];
// Cards below 2xl, not xl: a code stays on one line, and at 1280 px seven columns of it do not fit.
const stacked = stackedTables['2xl'];
const cell = stackedCellOf('2xl');
const row = stackedRowOf('2xl');

/** Claims against the stock, expandable to who claimed (also in the title, for a quick hover). */
function Claimed({ code }: { code: AdminRedeemCode }) {
  const count = labels.claimedOfStock(code.claimed, code.stock);
  if (code.claimedBy.length === 0) return <span className="tabular-nums">{count}</span>;
  return (
    <details title={code.claimedBy.join(', ')}>
      <summary className="cursor-pointer whitespace-nowrap tabular-nums">{count}</summary>
      <ul className="mt-1 max-h-32 overflow-y-auto text-ink-muted text-xs">
        {code.claimedBy.map((who, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a GrowID and another claimant's Discord id may coincide
          <li key={index}>{who}</li>
        ))}
      </ul>
    </details>
  );
}

/** The Redeem Codes list (admin document, section 3): a table on wide screens, one card per code below. */
export function CodesTable({ codes, onDelete }: CodesTableProps) {
  return (
    <StackedTable headers={headers} empty={labels.noCodes} isEmpty={codes.length === 0} cardsBelow="2xl">
      {codes.map((code) => (
        <tr key={code.code} data-testid="admin-code-row" data-code={code.code} className={row}>
          <td data-label={col.code} className={`${cell} ${stacked.wide}`}>
            <div className="flex items-center gap-1">
              {/* One line: a code broken mid-token reads as two codes. The table scrolls if it must. */}
              <span className="whitespace-nowrap font-mono text-ink">{code.code}</span>
              <CopyCodeButton code={code.code} />
            </div>
            <div className="text-ink-muted text-xs">{labels.createdBy(code.createdBy)}</div>
          </td>
          <td data-label={col.type} className={cell}>
            {code.type}
          </td>
          <td data-label={col.amount} className={`${cell} tabular-nums`}>
            {code.amount}
          </td>
          <td data-label={col.claimed} className={cell}>
            <Claimed code={code} />
          </td>
          <td data-label={col.expiry} className={`${cell} whitespace-nowrap`}>
            {code.expiryDate ?? labels.noExpiry}
          </td>
          <td data-label={col.status} className={cell}>
            <CodeStatusBadge status={code.displayStatus} />
          </td>
          <td className={`${adminTable.cell} text-right ${stacked.actions} ${onDelete ? '' : stacked.cardHidden}`}>
            {onDelete && (
              <Button size="sm" variant="danger" onClick={() => onDelete(code.code)}>
                {labels.delete}
              </Button>
            )}
          </td>
        </tr>
      ))}
    </StackedTable>
  );
}
