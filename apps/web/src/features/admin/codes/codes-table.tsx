import { type AdminRedeemCode, adminContentLabels as labels } from '@canopy/contract';
import { Button } from '../../../components/ui/index.ts';
import { adminTable } from '../components/admin-list-frame.tsx';
import { CodeStatusBadge } from './code-status-badge.tsx';
import { CopyCodeButton } from './copy-code-button.tsx';

export interface CodesTableProps {
  codes: AdminRedeemCode[];
  /** Shown only to admins holding codes:manage. */
  onDelete?: (code: string) => void;
}

/** Who claimed a code: the count, expandable to the list (also in the title, for a quick hover). */
function ClaimedBy({ claimedBy }: { claimedBy: string[] }) {
  if (claimedBy.length === 0) return <span className="text-ink-muted">{labels.claimedNobody}</span>;
  return (
    <details title={claimedBy.join(', ')}>
      <summary className="cursor-pointer whitespace-nowrap">{labels.claimedCount(claimedBy.length)}</summary>
      <ul className="mt-1 max-h-32 overflow-y-auto text-ink-muted text-xs">
        {claimedBy.map((who, index) => (
          // The same claimant name may appear twice (a GrowID and a Discord id can coincide): index keeps keys unique.
          // biome-ignore lint/suspicious/noArrayIndexKey: the list is static for a render
          <li key={`${who}-${index}`}>{who}</li>
        ))}
      </ul>
    </details>
  );
}

/** The Redeem Codes list (admin document, section 3). */
export function CodesTable({ codes, onDelete }: CodesTableProps) {
  return (
    <div className={adminTable.wrap}>
      <table className={adminTable.table}>
        <thead className={adminTable.head}>
          <tr>
            {labels.columns.map((column, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: fixed columns; the last has no title
              <th key={index} scope="col" className={adminTable.cell}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className={adminTable.body}>
          {codes.length === 0 && (
            <tr>
              <td colSpan={labels.columns.length} className={adminTable.empty}>
                {labels.noCodes}
              </td>
            </tr>
          )}
          {codes.map((code) => (
            <tr key={code.code} data-testid="admin-code-row" data-code={code.code} className={adminTable.row}>
              <td className={adminTable.cell}>
                <div className="flex items-center gap-1">
                  <span className="whitespace-nowrap font-mono text-ink">{code.code}</span>
                  <CopyCodeButton code={code.code} />
                </div>
              </td>
              <td className={adminTable.cell}>{code.type}</td>
              <td className={`${adminTable.cell} tabular-nums`}>{code.amount}</td>
              <td className={`${adminTable.cell} tabular-nums`}>{code.stock}</td>
              <td className={adminTable.cell}>
                <ClaimedBy claimedBy={code.claimedBy} />
              </td>
              <td className={adminTable.cell}>{code.createdBy}</td>
              <td className={`${adminTable.cell} whitespace-nowrap`}>{code.expiryDate ?? labels.noExpiry}</td>
              <td className={adminTable.cell}>
                <CodeStatusBadge status={code.displayStatus} />
              </td>
              <td className={`${adminTable.cell} text-right`}>
                {onDelete && (
                  <Button size="sm" variant="danger" onClick={() => onDelete(code.code)}>
                    {labels.delete}
                  </Button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
