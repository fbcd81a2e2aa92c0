/** Access rule of a web route (panel document, section 2.1). */
export type RouteAccess = 'public' | 'registered' | 'owner' | 'non-collaborator' | 'admin';

export interface WebRoute {
  path: string;
  label: string;
  access: RouteAccess;
}

/**
 * The web routes in sidebar order. The web builds its router and sidebar from this table and the api
 * uses it to answer unknown browser paths with a 404 status.
 */
export const webRoutes: readonly WebRoute[] = [
  { path: '/dashboard', label: 'Dashboard', access: 'registered' },
  { path: '/worlds', label: 'World Manager', access: 'registered' },
  { path: '/players', label: 'Player Database', access: 'registered' },
  { path: '/collaborators', label: 'Collaborators', access: 'owner' },
  { path: '/alerts', label: 'Discord Alerts', access: 'owner' },
  { path: '/backup', label: 'Backup Manager', access: 'registered' },
  { path: '/schedules', label: 'Schedules', access: 'registered' },
  { path: '/configuration', label: 'Configuration', access: 'registered' },
  { path: '/console', label: 'Console', access: 'registered' },
  { path: '/profile', label: 'Profile', access: 'registered' },
  { path: '/redeem-code', label: 'Redeem Code', access: 'registered' },
  { path: '/renew', label: 'Renew & Shop', access: 'non-collaborator' },
  { path: '/items', label: 'Item Database', access: 'registered' },
  { path: '/how-to-play', label: 'Setup Guide', access: 'registered' },
  { path: '/feedback', label: 'Feedback', access: 'registered' },
  { path: '/admin', label: 'Admin Panel', access: 'admin' },
];

/** Pages a banned user may still open. */
export const bannedAllowedPaths: readonly string[] = ['/dashboard', '/profile', '/feedback', '/how-to-play'];

/** True when the path is a page of the web app (the login page included). */
export function isWebPath(path: string): boolean {
  return path === '/' || webRoutes.some((r) => r.path === path);
}
