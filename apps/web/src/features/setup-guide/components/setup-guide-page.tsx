import type { WebRoute } from '@canopy/contract';

/** The Setup Guide (spec 2.11) (issue 10): filled by its own work. */
export function SetupGuidePage({ route }: { route: WebRoute }) {
  return <h1 className="font-bold text-2xl text-ink">{route.label}</h1>;
}
