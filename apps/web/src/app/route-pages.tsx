import type { WebRoute } from '@canopy/contract';
import type { ComponentType } from 'react';
import { AdminPage } from '../features/admin/components/admin-page.tsx';
import { AlertsPage } from '../features/alerts/components/alerts-page.tsx';
import { BackupPage } from '../features/backup/components/backup-page.tsx';
import { CollaboratorsPage } from '../features/collaborators/components/collaborators-page.tsx';
import { ConfigurationPage } from '../features/configuration/components/configuration-page.tsx';
import { ConsolePage } from '../features/console/components/console-page.tsx';
import { DashboardPage } from '../features/dashboard/components/dashboard-page.tsx';
import { FeedbackPage } from '../features/feedback/components/feedback-page.tsx';
import { ItemsPage } from '../features/items/components/items-page.tsx';
import { ComingSoonPage } from '../features/placeholder/components/coming-soon-page.tsx';
import { PlayersPage } from '../features/players/components/players-page.tsx';
import { ProfilePage } from '../features/profile/components/profile-page.tsx';
import { RedeemPage } from '../features/redeem/components/redeem-page.tsx';
import { SchedulesPage } from '../features/schedules/components/schedules-page.tsx';
import { SetupGuidePage } from '../features/setup-guide/components/setup-guide-page.tsx';
import { RenewPage } from '../features/shop/components/renew-page.tsx';
import { WorldsPage } from '../features/worlds/components/worlds-page.tsx';

/** A page rendered for one guarded route. */
export type RoutePage = ComponentType<{ route: WebRoute }>;

/** The page of each built route; any route of the contract's table not listed here is 'Coming soon'. */
export const routePages: Readonly<Record<string, RoutePage>> = {
  '/dashboard': DashboardPage,
  '/profile': ProfilePage,
  '/worlds': WorldsPage,
  '/players': PlayersPage,
  '/console': ConsolePage,
  '/collaborators': CollaboratorsPage,
  '/alerts': AlertsPage,
  '/backup': BackupPage,
  '/schedules': SchedulesPage,
  '/configuration': ConfigurationPage,
  '/items': ItemsPage,
  '/redeem-code': RedeemPage,
  '/renew': RenewPage,
  '/how-to-play': SetupGuidePage,
  '/feedback': FeedbackPage,
  '/admin': AdminPage,
};

/** The page component for a route. */
export function pageFor(route: WebRoute): RoutePage {
  return routePages[route.path] ?? ComingSoonPage;
}
