/** The Banned Servers tab of /admin (admin document, section 2). */
export function BannedServersTab() {
  return <p className="text-ink-muted">Banned Servers</p>;
}
