/** The Servers tab of /admin (admin document, section 2). */
export function ServersTab() {
  return <p className="text-ink-muted">Servers</p>;
}
