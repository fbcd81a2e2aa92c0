import {
  dashboardTexts,
  hostingMessages,
  type LinkedSentence,
  type Profile,
  type ServerStatus,
  type Settings,
} from '@canopy/contract';
import { Link } from 'react-router';
import { EndingSoonBanner, GraceBanner } from '../../../components/server-time-banners.tsx';
import { BanCountdown, Banner } from '../../../components/ui/index.ts';
import type { ServerTimePhase } from '../../../lib/expiry.ts';
import { formatSize } from '../../../lib/format.ts';
import { graceNotice, keepServerWay } from '../../../lib/server-time-warning.ts';
import {
  type AfterDeletion,
  afterDeletion,
  banDetails,
  deletionNotice,
  showCrashLoopBanner,
  showStorageBanner,
} from '../banner-state.ts';
import { useDismissedDeletion } from '../use-dismissed-deletion.ts';

export interface DashboardBannersProps {
  profile: Profile;
  /** The admin switches: the grace and deletion notices' ways follow the shop's and creation's locks. */
  settings: Settings;
  /** The failed status fetch, if any. */
  loadError: Error | null;
  /** The server's status; undefined while loading or without a server. */
  status: ServerStatus | undefined;
  /** The server time's phase; the banners re-render when it changes. */
  phase: ServerTimePhase;
}

const linkClass = 'font-medium underline hover:no-underline';

/** A contract sentence with its link to `to`. */
function Linked({ sentence, to, testId }: { sentence: LinkedSentence; to: string; testId: string }) {
  return (
    <>
      {sentence.before}{' '}
      <Link to={to} className={linkClass} data-testid={testId}>
        {sentence.link}
      </Link>{' '}
      {sentence.after}
    </>
  );
}

/** The deletion notice's last sentence: what the user can do now (afterDeletion). */
function AfterDeletionText({ next }: { next: AfterDeletion }) {
  switch (next) {
    case 'create':
      return <>{dashboardTexts.deletedCreate}</>;
    case 'renew':
      return <Linked sentence={dashboardTexts.deletedRenew} to="/renew" testId="deleted-renew-link" />;
    case 'redeem':
      return <Linked sentence={dashboardTexts.deletedRedeem} to="/redeem-code" testId="deleted-redeem-link" />;
    case null:
      return null;
  }
}

/**
 * The dashboard's notices (spec 2.6): ban, grace period, a deleted server, crash loop, storage exceeded and
 * load error, most serious first.
 */
export function DashboardBanners({ profile, settings, loadError, status, phase }: DashboardBannersProps) {
  const ban = banDetails(profile);
  const deleted = deletionNotice(profile);
  const deletion = useDismissedDeletion(profile.id, profile.lastServerDeletion);
  // `phase` changes exactly when the grace banner appears or turns due; now is read at that render.
  const timeRanOut = phase === 'grace' || phase === 'over';
  const grace = timeRanOut ? graceNotice(profile, new Date()) : null;
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
      <EndingSoonBanner profile={profile} settings={settings} />
      {grace && <GraceBanner grace={grace} way={keepServerWay(profile, settings)} />}
      {deleted && !deletion.dismissed && (
        <Banner tone="info" title="Your server was deleted." onDismiss={deletion.dismiss} data-testid="banner-deleted">
          <span data-testid="deleted-details">
            <strong>{deleted.name}</strong> was deleted on {deleted.when}. {deleted.why}
          </span>{' '}
          <span data-testid="deleted-next">
            {dashboardTexts.deletedGone} <AfterDeletionText next={afterDeletion(profile, settings, timeRanOut)} />
          </span>
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
