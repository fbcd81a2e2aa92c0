import type { WebRoute } from '@canopy/contract';

/** The Redeem Code page (spec 2.8) (issue 10): filled by its own work. */
export function RedeemPage({ route }: { route: WebRoute }) {
  return <h1 className="font-bold text-2xl text-ink">{route.label}</h1>;
}
