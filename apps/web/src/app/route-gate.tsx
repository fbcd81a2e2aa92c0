import { BAN_COUNTDOWN_REFRESH_MS, type Profile, type WebRoute } from '@canopy/contract';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { Link, Navigate } from 'react-router';
import { LockedPage } from '../features/errors/components/locked-page.tsx';
import { hiddenRouteExplains, navAccess } from '../features/shell/nav-access.ts';
import { msUntilBanEnds } from '../lib/expiry.ts';
import { profileQueryKey, useRegisteredProfile } from '../lib/profile-query.ts';
import { lockedPageReason } from '../lib/server-page-gate.ts';

// setTimeout holds at most ~24.8 days; a farther end is approached in steps.
const MAX_WAIT_MS = 24 * 3600 * 1000;

/**
 * A temporary ban ends at a known instant: the profile is refetched a moment after it, so the api's answer
 * (no longer banned) unlocks the sidebar and the pages without a reload. Every page sits in a RouteGate.
 */
function useRefetchAtBanEnd(profile: Pick<Profile, 'id' | 'isBanned' | 'banInfo'>) {
  const queryClient = useQueryClient();
  const expires = profile.isBanned ? (profile.banInfo?.expires ?? null) : null;
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const wait = () => {
      const left = msUntilBanEnds(expires, new Date());
      if (left === null) return;
      if (left > 0) {
        // A little past the instant, so the api's clock has passed it too.
        timer = setTimeout(wait, Math.min(left + 1000, MAX_WAIT_MS));
        return;
      }
      void queryClient.invalidateQueries({ queryKey: profileQueryKey(profile.id) });
      // Still banned after the answer (the api's clock is behind ours): ask again until it is not.
      timer = setTimeout(wait, BAN_COUNTDOWN_REFRESH_MS);
    };
    wait();
    return () => clearTimeout(timer);
  }, [expires, profile.id, queryClient]);
}

/**
 * Applies the sidebar's rules to direct navigation: a route hidden from the user (e.g. /admin for a
 * non-admin) redirects to /dashboard unless its page explains itself (hiddenRouteExplains), a locked
 * one shows why instead of the page.
 */
export function RouteGate({ route, children }: { route: WebRoute; children: ReactNode }) {
  const { profile, settings } = useRegisteredProfile();
  useRefetchAtBanEnd(profile);
  const access = navAccess(route, profile, settings);
  if (!access.visible) return hiddenRouteExplains(route) ? children : <Navigate to="/dashboard" replace />;
  if (access.locked)
    return (
      <LockedPage label={route.label} reason={lockedPageReason(route.path, profile, access.reason)}>
        {route.path === '/renew' && !profile.isBanned && (
          // The shop is off, but a server time code still keeps a server alive.
          <>
            Server time codes still work: redeem one on the{' '}
            <Link to="/redeem-code" className="font-medium text-accent underline hover:no-underline">
              Redeem Code
            </Link>{' '}
            page.
          </>
        )}
      </LockedPage>
    );
  return children;
}
