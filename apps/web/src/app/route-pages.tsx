import type { WebRoute } from '@canopy/contract';
import type { ComponentType } from 'react';
import { DashboardPage } from '../features/dashboard/components/dashboard-page.tsx';
import { ComingSoonPage } from '../features/placeholder/components/coming-soon-page.tsx';
import { ProfilePage } from '../features/profile/components/profile-page.tsx';

/** A page rendered for one guarded route. */
export type RoutePage = ComponentType<{ route: WebRoute }>;

/** The page of each built route; any route of the contract's table not listed here is 'Coming soon'. */
export const routePages: Readonly<Record<string, RoutePage>> = {
  '/dashboard': DashboardPage,
  '/profile': ProfilePage,
};

/** The page component for a route. */
export function pageFor(route: WebRoute): RoutePage {
  return routePages[route.path] ?? ComingSoonPage;
}
