import type { RedeemDisplayStatus } from '@canopy/contract';
import { Badge, type BadgeTone } from '../../../components/ui/index.ts';

const tones: Record<RedeemDisplayStatus, BadgeTone> = {
  Expired: 'danger',
  'Out of Stock': 'warning',
  Public: 'info',
  Active: 'success',
};

/** A code's display status (decided by the api with `redeemDisplayStatus`) as a coloured badge. */
export function CodeStatusBadge({ status }: { status: RedeemDisplayStatus }) {
  return (
    <Badge tone={tones[status]} data-status={status}>
      {status}
    </Badge>
  );
}
