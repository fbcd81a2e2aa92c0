import type { ReactNode } from 'react';
import { adminTable } from './admin-list-frame.tsx';

/**
 * Classes that turn an admin table into one card per row below a breakpoint, where the panel's two sidebars
 * leave too little width for many columns. Each cell names itself with `data-label`, shown above its value in
 * card form; the header row is hidden there. Two literal sets (Tailwind only sees whole class names): xl for
 * most tables, 2xl for one whose cells do not wrap (the redeem codes, kept on one line).
 */
export const stackedTables = {
  xl: {
    table: 'max-xl:block',
    head: 'max-xl:hidden',
    body: 'max-xl:block',
    row: 'max-xl:grid max-xl:grid-cols-2 max-xl:gap-x-4 max-xl:gap-y-3 max-xl:p-4 sm:max-xl:grid-cols-3',
    cell: 'max-xl:block max-xl:p-0 max-xl:before:mb-0.5 max-xl:before:block max-xl:before:text-ink-muted max-xl:before:text-[11px] max-xl:before:uppercase max-xl:before:tracking-wide max-xl:before:content-[attr(data-label)]',
    /** A cell that takes the card's whole width (the code, the actions). */
    wide: 'max-xl:col-span-full',
    /** The actions cell: a full-width row of the card, left-aligned. */
    actions: 'max-xl:col-span-full max-xl:p-0 max-xl:text-left',
    /** Hidden in card form (an empty actions cell). */
    cardHidden: 'max-xl:hidden',
  },
  '2xl': {
    table: 'max-2xl:block',
    head: 'max-2xl:hidden',
    body: 'max-2xl:block',
    row: 'max-2xl:grid max-2xl:grid-cols-2 max-2xl:gap-x-4 max-2xl:gap-y-3 max-2xl:p-4 sm:max-2xl:grid-cols-3',
    cell: 'max-2xl:block max-2xl:p-0 max-2xl:before:mb-0.5 max-2xl:before:block max-2xl:before:text-ink-muted max-2xl:before:text-[11px] max-2xl:before:uppercase max-2xl:before:tracking-wide max-2xl:before:content-[attr(data-label)]',
    wide: 'max-2xl:col-span-full',
    actions: 'max-2xl:col-span-full max-2xl:p-0 max-2xl:text-left',
    cardHidden: 'max-2xl:hidden',
  },
} as const;
export type CardsBelow = keyof typeof stackedTables;

/** The xl set, which most stacked tables use. */
export const stackedTable = stackedTables.xl;

/** A row of a StackedTable: the admin row hover plus its card form below the breakpoint. */
export const stackedRowOf = (below: CardsBelow) => `${adminTable.row} ${stackedTables[below].row}`;
/** A cell of a StackedTable row that names itself with `data-label` in card form. */
export const stackedCellOf = (below: CardsBelow) => `${adminTable.cell} ${stackedTables[below].cell}`;
export const stackedRow = stackedRowOf('xl');
export const stackedCell = stackedCellOf('xl');

export interface StackedTableProps {
  /** Column headings; '' for a column without one (the actions). */
  headers: readonly string[];
  /** Shown in a single row when there are no rows. */
  empty: string;
  isEmpty: boolean;
  /** Where the table becomes cards: below xl unless told (its rows and cells use the same set). */
  cardsBelow?: CardsBelow;
  /** The rows: <tr className={stackedRow}> with cells carrying `data-label`. */
  children: ReactNode;
}

/** An admin table that becomes one card per row below a breakpoint: the header, the empty row and the body. */
export function StackedTable({ headers, empty, isEmpty, cardsBelow = 'xl', children }: StackedTableProps) {
  const set = stackedTables[cardsBelow];
  return (
    <div className={adminTable.wrap}>
      <table className={`${adminTable.table} ${set.table}`}>
        <thead className={`${adminTable.head} ${set.head}`}>
          <tr>
            {headers.map((header) => (
              <th key={header} scope="col" className={adminTable.cell}>
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className={`${adminTable.body} ${set.body}`}>
          {isEmpty && (
            <tr className={set.table}>
              <td colSpan={headers.length} className={`${adminTable.empty} ${set.table}`}>
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
