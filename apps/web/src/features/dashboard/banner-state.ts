import { dashboardTexts, GRACE_PERIOD_DAYS, type Profile, type ServerStatus, type Settings } from '@canopy/contract';
import { formatDateTime } from '../../lib/format.ts';
import { hasServer } from '../../lib/owned-server.ts';
import { keepServerWay } from '../../lib/server-time-warning.ts';
import { isStorageFull } from '../../lib/usage.ts';
import { type ControlProfile, type ControlSettings, createControl } from './server-controls.ts';

/** True when the crash-loop banner shows: the guard left the server offline and nobody started it since. */
export function showCrashLoopBanner(profile: Pick<Profile, 'serverCrashLoop'>, status: ServerStatus | undefined) {
  return profile.serverCrashLoop && status === 'OFFLINE';
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

/** The dashboard's notice of a deleted server: its name, when (local date and time) and why. */
export interface DeletionNotice {
  name: string;
  when: string;
  why: string;
}

const deletedWhy = {
  owner: 'You deleted it.',
  admin: 'An administrator deleted it.',
  expiry: `Its server time ran out and the ${GRACE_PERIOD_DAYS}-day grace period ended.`,
} as const;

/** The notice of the user's last deleted server; null while they have a server (or none was ever deleted). */
export function deletionNotice(profile: Pick<Profile, 'serverOwned' | 'lastServerDeletion'>): DeletionNotice | null {
  const deleted = profile.lastServerDeletion;
  if (hasServer(profile.serverOwned) || !deleted) return null;
  return { name: deleted.name, when: formatDateTime(deleted.at), why: deletedWhy[deleted.by] };
}

/**
 * What the deletion notice tells the user to do next: create a server; add server time first (Renew & Shop, or
 * a code on Redeem Code while the shop is disabled for them) when it ran out; or nothing when they could not
 * create one anyway (banned, creation disabled, no slot: the Create Server button says why).
 */
export type AfterDeletion = 'create' | 'renew' | 'redeem' | null;

/** The deletion notice's next step for this user (see AfterDeletion); `timeRanOut` as the dashboard's phase says. */
export function afterDeletion(
  profile: ControlProfile,
  settings: ControlSettings & Pick<Settings, 'disableShop'>,
  timeRanOut: boolean,
): AfterDeletion {
  if (!createControl(profile, settings).enabled) return null;
  if (!timeRanOut) return 'create';
  const way = keepServerWay(profile, settings);
  return way === 'renew' || way === 'redeem' ? way : null;
}

/**
 * The Server Time card's line for an account without a server whose time ran out (there is no grace period
 * without a server to delete): how to get time again; null with a server, or while time is left.
 */
export function noServerTimeHint(
  profile: Pick<Profile, 'serverOwned' | 'isCollaborator' | 'isBanned' | 'isAdmin'>,
  settings: Pick<Settings, 'disableShop'>,
  timeRanOut: boolean,
): string | null {
  if (hasServer(profile.serverOwned) || !timeRanOut) return null;
  const way = keepServerWay(profile, settings);
  if (way === 'renew') return dashboardTexts.noTimeRenew;
  return way === 'redeem' ? dashboardTexts.noTimeRedeem : dashboardTexts.noTime;
}
