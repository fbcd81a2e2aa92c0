/** The Permissions tab of /admin (admin document, section 2). */
export function PermissionsTab() {
  return <p className="text-ink-muted">Permissions</p>;
}
