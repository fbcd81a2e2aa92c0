import type { Profile, ServerTime, Settings } from '@canopy/contract';
import { msUntilNextPhase, serverTimePhase } from './expiry.ts';
import { formatDate, formatDateTime } from './format.ts';
import { hasServer } from './owned-server.ts';

/** How long before the server time runs out the panel starts warning (issue 24: nobody is surprised). */
export const ENDING_SOON_MS = 24 * 3600 * 1000;

/**
 * The pages that warn about the server time besides the dashboard: the ones that manage the server, where an
 * owner spends the day before it stops.
 */
const serverPages: ReadonlySet<string> = new Set([
  '/worlds',
  '/players',
  '/collaborators',
  '/backup',
  '/configuration',
  '/console',
]);

/** True on a server page, where the shell shows the ending-soon banner (the dashboard shows its own). */
export function isServerPage(pathname: string): boolean {
  return serverPages.has(pathname);
}

/**
 * Where a banner sends the user to keep the server: Renew & Shop; the Redeem Code page when the shop is
 * disabled for them (a server time code still adds time); nowhere for a collaborator (the owner renews) or a
 * banned account (both pages are locked). The same locks as the sidebar's (spec 2.5).
 */
export type KeepServerWay = 'renew' | 'redeem' | 'ask-owner' | 'banned';

/** How the banners tell this user to keep the server (see KeepServerWay). */
export function keepServerWay(
  profile: Pick<Profile, 'isCollaborator' | 'isBanned' | 'isAdmin'>,
  settings: Pick<Settings, 'disableShop'>,
): KeepServerWay {
  if (profile.isCollaborator) return 'ask-owner';
  if (profile.isBanned) return 'banned';
  return settings.disableShop && !profile.isAdmin ? 'redeem' : 'renew';
}

/** What the ending-soon banner says: the instant the server time runs out ('dd/mm/yyyy, hh:mm:ss', local). */
export interface EndingSoon {
  endsAt: string;
}

/**
 * The ending-soon banner at `now`: less than ENDING_SOON_MS of running server time left on an existing server.
 * Null for permanent time (it never ends), time pending or already out (the grace banner takes over), and
 * without a server (nothing stops or gets deleted then). A Paid plan changes nothing here: it raises storage,
 * not server time (ADR 0019).
 */
export function endingSoon(profile: Pick<Profile, 'serverTime' | 'serverOwned'>, now: Date): EndingSoon | null {
  const time = profile.serverTime;
  if (!hasServer(profile.serverOwned) || serverTimePhase(time, now) !== 'running' || time.expiresAt === null)
    return null;
  const left = Date.parse(time.expiresAt) - now.getTime();
  return left < ENDING_SOON_MS ? { endsAt: formatDateTime(time.expiresAt) } : null;
}

/**
 * Milliseconds until endingSoon's answer changes next (the banner appears, or the time runs out and it goes),
 * or null when it never will; the banner re-renders then, so it needs no ticking timer.
 */
export function msUntilEndingSoonChanges(time: ServerTime, now: Date): number | null {
  if (serverTimePhase(time, now) !== 'running' || time.expiresAt === null) return null;
  const left = Date.parse(time.expiresAt) - now.getTime();
  return left >= ENDING_SOON_MS ? left - ENDING_SOON_MS : left;
}

/** What the grace banner says: the day deletion is due ('dd/mm/yyyy', local) and whether it is already due. */
export interface GraceNotice {
  endsOn: string;
  over: boolean;
}

/**
 * The grace banner at `now`, from the exact instant the scheduler deletes at (so the day shown is the
 * day it happens where the user is); null while the server time runs, is permanent or is pending, and
 * once there is no server left to delete.
 */
export function graceNotice(profile: Pick<Profile, 'serverTime' | 'serverOwned'>, now: Date): GraceNotice | null {
  const time = profile.serverTime;
  if (!hasServer(profile.serverOwned)) return null;
  const phase = serverTimePhase(time, now);
  if ((phase !== 'grace' && phase !== 'over') || time.graceEndsAt === null) return null;
  return { endsOn: formatDate(time.graceEndsAt), over: phase === 'over' };
}

/**
 * Milliseconds until either server time banner may change (the warning starts, the time runs out, the grace
 * period ends), or null when neither will.
 */
export function msUntilServerTimeBannersChange(time: ServerTime, now: Date): number | null {
  const waits = [msUntilEndingSoonChanges(time, now), msUntilNextPhase(time, now)].filter((w) => w !== null);
  return waits.length === 0 ? null : Math.min(...waits);
}
