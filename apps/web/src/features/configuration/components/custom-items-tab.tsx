/** Issue 9 builds this tab of the Configuration page. */
export function CustomItemsTab() {
  return <p className="text-ink-muted">Coming soon</p>;
}
