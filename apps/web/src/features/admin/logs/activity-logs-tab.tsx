/** The Activity Logs tab of /admin (admin document, section 2). */
export function ActivityLogsTab() {
  return <p className="text-ink-muted">Activity Logs</p>;
}
