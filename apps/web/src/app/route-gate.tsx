import type { WebRoute } from '@canopy/contract';
import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { LockedPage } from '../features/errors/components/locked-page.tsx';
import { hiddenRouteExplains, navAccess } from '../features/shell/nav-access.ts';
import { useRegisteredProfile } from '../lib/profile-query.ts';
import { lockedPageReason } from '../lib/server-page-gate.ts';

/**
 * Applies the sidebar's rules to direct navigation: a route hidden from the user (e.g. /admin for a
 * non-admin) redirects to /dashboard unless its page explains itself (hiddenRouteExplains), a locked
 * one shows why instead of the page.
 */
export function RouteGate({ route, children }: { route: WebRoute; children: ReactNode }) {
  const { profile, settings } = useRegisteredProfile();
  const access = navAccess(route, profile, settings);
  if (!access.visible) return hiddenRouteExplains(route) ? children : <Navigate to="/dashboard" replace />;
  if (access.locked)
    return <LockedPage label={route.label} reason={lockedPageReason(route.path, profile, access.reason)} />;
  return children;
}
