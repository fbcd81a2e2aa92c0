import { hostingMessages, type Profile, type ServerStatus } from '@canopy/contract';
import { Link } from 'react-router';
import { BanCountdown, Banner } from '../../../components/ui/index.ts';
import type { ServerTimePhase } from '../../../lib/expiry.ts';
import { formatSize } from '../../../lib/format.ts';
import { banDetails, graceNotice, showCrashLoopBanner, showStorageBanner } from '../banner-state.ts';

export interface DashboardBannersProps {
  profile: Profile;
  /** The failed status fetch, if any. */
  loadError: Error | null;
  /** The server's status; undefined while loading or without a server. */
  status: ServerStatus | undefined;
  /** The server time's phase; the banners re-render when it changes. */
  phase: ServerTimePhase;
}

/**
 * The dashboard's notices (spec 2.6): ban, grace period, crash loop, storage exceeded and load error,
 * most serious first.
 */
export function DashboardBanners({ profile, loadError, status, phase }: DashboardBannersProps) {
  const ban = banDetails(profile);
  // `phase` changes exactly when the grace banner appears or turns due; now is read at that render.
  const grace = phase === 'grace' || phase === 'over' ? graceNotice(profile, new Date()) : null;
  return (
    <div className="flex flex-col gap-3 empty:hidden">
      {ban && (
        <Banner tone="danger" title="Your account is banned" data-testid="banner-ban">
          <dl className="grid gap-x-4 gap-y-1 sm:grid-cols-[auto_1fr]">
            <dt className="opacity-75">Reason</dt>
            <dd data-testid="ban-reason">{ban.reason}</dd>
            <dt className="opacity-75">Banned by</dt>
            <dd data-testid="ban-by">{ban.bannedBy}</dd>
            <dt className="opacity-75">Time left</dt>
            <dd data-testid="ban-countdown">
              <BanCountdown expires={ban.expires} />
            </dd>
          </dl>
          <p className="mt-2">Server actions are disabled while the ban lasts.</p>
        </Banner>
      )}
      {grace && (
        <Banner tone="warning" title="Your server time has run out" data-testid="banner-grace">
          {grace.over ? (
            <>
              The grace period ended on <strong>{grace.endsOn}</strong>. Your server and all of its data are being
              deleted permanently.
            </>
          ) : (
            <>
              Your server and all of its data will be deleted permanently when the grace period ends on{' '}
              <strong>{grace.endsOn}</strong>.{' '}
              {profile.isCollaborator ? (
                'Ask the server owner to renew the server time to keep it.'
              ) : (
                <>
                  Renew your server time on the{' '}
                  <Link to="/renew" className="font-medium underline hover:no-underline">
                    Renew &amp; Shop
                  </Link>{' '}
                  page to keep it.
                </>
              )}
            </>
          )}
        </Banner>
      )}
      {showCrashLoopBanner(profile, status) && (
        <Banner tone="danger" title="Your server keeps crashing" data-testid="banner-crash-loop">
          {hostingMessages.crashLoop}
        </Banner>
      )}
      {showStorageBanner(profile) && (
        <Banner tone="danger" title="Storage limit exceeded" data-testid="banner-storage">
          You are using {formatSize(profile.storageUsedMB)} of your {formatSize(profile.storageLimitMB)} storage. The
          server cannot start until you free up space or upgrade your storage.
        </Banner>
      )}
      {loadError && (
        <Banner tone="danger" title="Could not load server status" data-testid="banner-load-error">
          {loadError.message}
        </Banner>
      )}
    </div>
  );
}
