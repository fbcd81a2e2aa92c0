import type { RedeemDisplayStatus } from '@canopy/contract';

const tones: Record<RedeemDisplayStatus, string> = {
  Expired: 'bg-red-500/10 text-red-300 ring-red-500/30',
  'Out of Stock': 'bg-amber-500/15 text-amber-300 ring-amber-500/40',
  Public: 'bg-sky-500/15 text-sky-300 ring-sky-500/40',
  Active: 'bg-emerald-500/15 text-emerald-300 ring-emerald-500/40',
};

/** A code's display status (decided by the api with `redeemDisplayStatus`) as a coloured badge. */
export function CodeStatusBadge({ status }: { status: RedeemDisplayStatus }) {
  return (
    <span
      data-status={status}
      className={`inline-flex whitespace-nowrap rounded-full px-2.5 py-0.5 font-semibold text-xs ring-1 ring-inset ${tones[status]}`}
    >
      {status}
    </span>
  );
}
