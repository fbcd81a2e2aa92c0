import type { Profile } from '@canopy/contract';
import { parseExpiry } from '../../lib/date-parse.ts';
import { formatDate } from '../../lib/format.ts';
import { isStorageFull } from '../../lib/usage.ts';

const GRACE_PREFIX = /^\s*grace period ends\s*/i;

/**
 * The date a grace period ends on, as shown in the grace banner ('dd/mm/yyyy'), when the server
 * time has run out ('Grace period ends ...'); null otherwise. An unreadable date is shown as given.
 */
export function graceEndsOn(estimatedExpiry: string | null | undefined): string | null {
  const text = estimatedExpiry ?? '';
  if (!GRACE_PREFIX.test(text)) return null;
  const parsed = parseExpiry(text);
  return parsed.kind === 'grace' ? formatDate(parsed.endsAt) : text.replace(GRACE_PREFIX, '').trim() || 'N/A';
}

/** The ban banner's facts: the reason and who banned (default 'System'); null when not banned. */
export function banDetails(
  profile: Pick<Profile, 'isBanned' | 'banInfo'>,
): { reason: string; bannedBy: string; expires: string | null } | null {
  if (!profile.isBanned) return null;
  const info = profile.banInfo;
  return {
    reason: info?.reason.trim() || 'No reason given',
    bannedBy: info?.bannedBy.trim() || 'System',
    expires: info?.expires ?? null,
  };
}

/** True when the storage-exceeded banner shows (used at or above the limit, which also blocks start). */
export function showStorageBanner(profile: Pick<Profile, 'storageUsedMB' | 'storageLimitMB'>): boolean {
  return isStorageFull(profile.storageUsedMB, profile.storageLimitMB);
}
