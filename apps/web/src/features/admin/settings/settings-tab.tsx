/** The Settings tab of /admin (admin document, section 2). */
export function SettingsTab() {
  return <p className="text-ink-muted">Settings</p>;
}
