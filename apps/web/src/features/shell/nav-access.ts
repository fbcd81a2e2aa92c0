import { bannedAllowedPaths, configurationMessages, messages, type Settings, type WebRoute } from '@canopy/contract';
import { hasServer } from '../../lib/owned-server.ts';

/** The profile fields that decide what the sidebar shows. */
export interface NavUser {
  isAdmin: boolean;
  isBanned: boolean;
  isCollaborator: boolean;
  serverOwned: string;
}

/** The settings flags that lock pages. */
export type NavSettings = Pick<
  Settings,
  'disableBackupManager' | 'disableShop' | 'disableGeneralConfig' | 'disableNewbieKit' | 'disableCustomItems'
>;

/** How one route appears: hidden, open, or shown locked with the reason as tooltip. */
export type NavAccess =
  | { visible: false }
  | { visible: true; locked: false }
  | { visible: true; locked: true; reason: string };

/** True when the route's access rule lets this user see it at all (spec 2.1 / 2.5). */
export function isRouteVisible(route: WebRoute, user: NavUser): boolean {
  switch (route.access) {
    case 'admin':
      return user.isAdmin;
    case 'owner':
      return hasServer(user.serverOwned) && !user.isCollaborator;
    case 'non-collaborator':
      return !user.isCollaborator;
    default:
      return true;
  }
}

/**
 * What opening a hidden route directly does: an owner-only page (and Renew & Shop) renders and says why it is not for
 * this user (spec: 'Only the server owner can manage collaborators.', 'You need a server to add
 * collaborators.'); any other hidden route (e.g. /admin) redirects to /dashboard.
 */
export function hiddenRouteExplains(route: WebRoute): boolean {
  // Renew & Shop tells a collaborator 'Only the server owner can renew the server or purchase items.'
  return route.access === 'owner' || route.access === 'non-collaborator';
}

/** True when an admin switch disables the page (only for non-admins; admins bypass these). */
function isFeatureDisabled(path: string, settings: NavSettings): boolean {
  switch (path) {
    case '/backup':
      return settings.disableBackupManager;
    case '/renew':
      return settings.disableShop;
    case '/configuration':
      // The page has three sections; it stays usable while any one of them is enabled.
      return settings.disableGeneralConfig && settings.disableNewbieKit && settings.disableCustomItems;
    default:
      return false;
  }
}

/** Decides whether a route is hidden, open or locked for the user. */
export function navAccess(route: WebRoute, user: NavUser, settings: NavSettings): NavAccess {
  if (!isRouteVisible(route, user)) return { visible: false };
  if (user.isBanned && !bannedAllowedPaths.includes(route.path)) {
    return { visible: true, locked: true, reason: messages.bannedPage };
  }
  if (!user.isAdmin && isFeatureDisabled(route.path, settings)) {
    // Configuration has its own text for all of its sections being off (server-management document, section 6).
    const reason = route.path === '/configuration' ? configurationMessages.allDisabled : messages.featureDisabled;
    return { visible: true, locked: true, reason };
  }
  return { visible: true, locked: false };
}

/** A sidebar entry: a visible route and whether it is locked. */
export interface NavItem {
  route: WebRoute;
  locked: boolean;
  reason: string | null;
}

/** The sidebar entries in table order, hidden routes left out. */
export function navItems(routes: readonly WebRoute[], user: NavUser, settings: NavSettings): NavItem[] {
  const items: NavItem[] = [];
  for (const route of routes) {
    const access = navAccess(route, user, settings);
    if (!access.visible) continue;
    items.push({ route, locked: access.locked, reason: access.locked ? access.reason : null });
  }
  return items;
}
