import { type RedeemStatus, redeemStatusLabels } from '@canopy/contract';
import { statusStyles } from '../redeem-view.ts';

/** A code's status as this user sees it. */
export function RedeemStatusPill({ status }: { status: RedeemStatus }) {
  return (
    <span
      data-testid="redeem-status"
      data-status={status}
      className={`inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 font-semibold text-xs ring-1 ring-inset ${statusStyles[status]}`}
    >
      <span aria-hidden="true" className="size-1.5 rounded-full bg-current" />
      {redeemStatusLabels[status]}
    </span>
  );
}
