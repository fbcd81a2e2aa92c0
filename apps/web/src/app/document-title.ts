import { webRoutes } from '@canopy/contract';

/** The name every tab title ends with. */
export const APP_NAME = 'Canopy';

/**
 * The tab title of a path, from the contract's route table: 'World Manager · Canopy'. The login
 * page reads 'Sign in · Canopy' and a path outside the table 'Page not found · Canopy'.
 */
export function documentTitle(pathname: string): string {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (path === '/') return `Sign in · ${APP_NAME}`;
  const route = webRoutes.find((r) => r.path === path);
  return `${route?.label ?? 'Page not found'} · ${APP_NAME}`;
}
