/** The Storage Analytics tab of /admin (admin document, section 2). */
export function StorageTab() {
  return <p className="text-ink-muted">Storage Analytics</p>;
}
