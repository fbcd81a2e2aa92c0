import type { ReactNode } from 'react';
import { adminTable } from './admin-list-frame.tsx';

/**
 * Classes that turn an admin table into one card per row below the xl breakpoint, where the panel's two
 * sidebars leave too little width for many columns. Each cell names itself with `data-label`, shown above
 * its value in card form; the header row is hidden there.
 */
export const stackedTable = {
  table: 'max-xl:block',
  head: 'max-xl:hidden',
  body: 'max-xl:block',
  row: 'max-xl:grid max-xl:grid-cols-2 max-xl:gap-x-4 max-xl:gap-y-3 max-xl:p-4 sm:max-xl:grid-cols-3',
  cell: 'max-xl:block max-xl:p-0 max-xl:before:mb-0.5 max-xl:before:block max-xl:before:text-ink-muted max-xl:before:text-[11px] max-xl:before:uppercase max-xl:before:tracking-wide max-xl:before:content-[attr(data-label)]',
  /** A cell that takes the card's whole width (the code, the actions). */
  wide: 'max-xl:col-span-full',
} as const;

export interface StackedTableProps {
  /** Column headings; '' for a column without one (the actions). */
  headers: readonly string[];
  /** Shown in a single row when there are no rows. */
  empty: string;
  isEmpty: boolean;
  /** The rows: <tr className={stackedRow}> with cells carrying `data-label`. */
  children: ReactNode;
}

/** A row of a StackedTable: the admin row hover plus its card form below xl. */
export const stackedRow = `${adminTable.row} ${stackedTable.row}`;
/** A cell of a StackedTable row that names itself with `data-label` in card form. */
export const stackedCell = `${adminTable.cell} ${stackedTable.cell}`;

/** An admin table that becomes one card per row below xl: the header, the empty row and the body around the rows. */
export function StackedTable({ headers, empty, isEmpty, children }: StackedTableProps) {
  return (
    <div className={adminTable.wrap}>
      <table className={`${adminTable.table} ${stackedTable.table}`}>
        <thead className={`${adminTable.head} ${stackedTable.head}`}>
          <tr>
            {headers.map((header) => (
              <th key={header} scope="col" className={adminTable.cell}>
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className={`${adminTable.body} ${stackedTable.body}`}>
          {isEmpty && (
            <tr className="max-xl:block">
              <td colSpan={headers.length} className={`${adminTable.empty} max-xl:block`}>
                {empty}
              </td>
            </tr>
          )}
          {children}
        </tbody>
      </table>
    </div>
  );
}
