import { adminBanLabels } from '@canopy/contract';
import { formatDateTime } from '../../../lib/format.ts';

/** A ban's expiry as shown: 'Permanent' when it is empty or null (admin document, section 4), else the date. */
export function banExpiryText(expires: string | null | undefined): string {
  return expires?.trim() ? formatDateTime(expires) : adminBanLabels.permanent;
}
