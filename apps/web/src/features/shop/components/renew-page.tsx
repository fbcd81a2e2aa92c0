import type { WebRoute } from '@canopy/contract';

/** The Renew & Shop page (spec 2.9) (issue 10): filled by its own work. */
export function RenewPage({ route }: { route: WebRoute }) {
  return <h1 className="font-bold text-2xl text-ink">{route.label}</h1>;
}
