import type { Profile, ServerTime, Settings } from '@canopy/contract';
import { serverTimePhase } from './expiry.ts';
import { formatDateTime } from './format.ts';
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
