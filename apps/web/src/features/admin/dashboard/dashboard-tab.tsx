/** The Dashboard tab of /admin (admin document, section 2). */
export function DashboardTab() {
  return <p className="text-ink-muted">Dashboard</p>;
}
