/** The Ban Logs tab of /admin (admin document, section 2). */
export function BanLogsTab() {
  return <p className="text-ink-muted">Ban Logs</p>;
}
