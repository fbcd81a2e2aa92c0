/** Issue 9 builds this tab of the Configuration page. */
export function CustomTexturesTab() {
  return <p className="text-ink-muted">Coming soon</p>;
}
