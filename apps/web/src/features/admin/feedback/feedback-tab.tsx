/** The Feedback tab of /admin (admin document, section 2). */
export function FeedbackTab() {
  return <p className="text-ink-muted">Feedback</p>;
}
