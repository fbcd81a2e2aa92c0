import type { WebRoute } from '@canopy/contract';

/** The Feedback page (spec 2.12) (issue 10): filled by its own work. */
export function FeedbackPage({ route }: { route: WebRoute }) {
  return <h1 className="font-bold text-2xl text-ink">{route.label}</h1>;
}
