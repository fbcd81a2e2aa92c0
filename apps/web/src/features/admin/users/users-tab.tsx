/** The Users tab of /admin (admin document, section 2). */
export function UsersTab() {
  return <p className="text-ink-muted">Users</p>;
}
