/** A cell that a spreadsheet would read as a formula starts with one of these (OWASP's CSV injection list). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, a quote or a line break, quotes doubled. A text that a
 * spreadsheet would run as a formula ('=HYPERLINK(...)', '+1', '@SUM') gets a leading apostrophe, so an entry an
 * attacker wrote (a server name, a feedback text in the details) is shown as text when an admin opens the file.
 */
export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One CSV record, CRLF-terminated as RFC 4180 writes it. */
export const csvRow = (cells: readonly string[]) => `${cells.map(csvCell).join(',')}\r\n`;
