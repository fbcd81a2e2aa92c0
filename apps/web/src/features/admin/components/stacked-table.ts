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
