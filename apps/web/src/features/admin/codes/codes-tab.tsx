/** The Redeem Codes tab of /admin (admin document, section 2). */
export function CodesTab() {
  return <p className="text-ink-muted">Redeem Codes</p>;
}
