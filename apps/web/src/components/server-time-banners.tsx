import { GRACE_PERIOD_DAYS, type Profile, type ServerTime, type Settings } from '@canopy/contract';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import {
  endingSoon,
  type GraceNotice,
  graceNotice,
  type KeepServerWay,
  keepServerWay,
  msUntilServerTimeBannersChange,
} from '../lib/server-time-warning.ts';
import { Banner, ExpiryCountdown } from './ui/index.ts';

const linkClass = 'font-medium underline hover:no-underline';

/** A banner's last sentence: what can still keep the server, for this user (keepServerWay). */
export function KeepServer({ way }: { way: KeepServerWay }) {
  switch (way) {
    case 'ask-owner':
      return <>Ask the server owner to renew the server time to keep it.</>;
    case 'banned':
      return <>Server time cannot be renewed while your account is banned.</>;
    case 'redeem':
      return (
        <>
          The shop is disabled by an administrator, but a server time code still keeps it: redeem one on the{' '}
          <Link to="/redeem-code" className={linkClass} data-testid="keep-redeem-link">
            Redeem Code
          </Link>{' '}
          page.
        </>
      );
    case 'renew':
      return (
        <>
          Renew your server time on the{' '}
          <Link to="/renew" className={linkClass} data-testid="keep-renew-link">
            Renew &amp; Shop
          </Link>{' '}
          page to keep it.
        </>
      );
  }
}

// setTimeout holds at most ~24.8 days; a farther change is approached in steps.
const MAX_WAIT_MS = 24 * 3600 * 1000;

/**
 * Re-renders the caller exactly when a server time banner may change (the warning starts, the time runs out,
 * the grace period ends): one timer, no ticking while nothing changes.
 */
function useServerTimeBannersFollow(serverTime: ServerTime): void {
  const [, setChanges] = useState(0);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const schedule = () => {
      const wait = msUntilServerTimeBannersChange(serverTime, new Date());
      if (wait === null) return;
      // A few ms past the instant, so the answer read then is the new one.
      timer = setTimeout(
        () => {
          setChanges((n) => n + 1);
          schedule();
        },
        Math.min(wait + 50, MAX_WAIT_MS),
      );
    };
    schedule();
    return () => clearTimeout(timer);
  }, [serverTime]);
}

export interface ServerTimeBannerProps {
  profile: Profile;
  settings: Pick<Settings, 'disableShop'>;
  className?: string;
}

/**
 * The warning a day before the server time runs out (endingSoon): when the server stops, what follows (the
 * grace period, then deletion) and the way to keep it. Nothing for permanent time or without a server.
 */
export function EndingSoonBanner({ profile, settings, className }: ServerTimeBannerProps) {
  useServerTimeBannersFollow(profile.serverTime);
  const soon = endingSoon(profile, new Date());
  if (!soon) return null;
  return (
    <Banner
      tone="warning"
      title="Your server time runs out soon"
      className={className}
      data-testid="banner-ending-soon"
    >
      <p>
        <strong>{profile.serverOwned}</strong> stops on <strong>{soon.endsAt}</strong> (
        <ExpiryCountdown time={profile.serverTime} />) and is deleted with all of its data {GRACE_PERIOD_DAYS} days
        later. <KeepServer way={keepServerWay(profile, settings)} />
      </p>
    </Banner>
  );
}

/** The grace banner (spec 2.6): the day the server is deleted and, until then, what can still keep it. */
export function GraceBanner({ grace, way, className }: { grace: GraceNotice; way: KeepServerWay; className?: string }) {
  return (
    <Banner tone="warning" title="Your server time has run out" className={className} data-testid="banner-grace">
      {grace.over ? (
        <>
          The grace period ended on <strong>{grace.endsOn}</strong>. Your server and all of its data are being deleted
          permanently.
        </>
      ) : (
        <>
          Your server and all of its data will be deleted permanently when the grace period ends on{' '}
          <strong>{grace.endsOn}</strong>. <KeepServer way={way} />
        </>
      )}
    </Banner>
  );
}

/**
 * A server page's server time banners (the dashboard places its own among its notices): the warning, or the
 * grace period once the time ran out, where a day of work would otherwise meet a stopped server unannounced.
 */
export function ServerPageTimeBanners({ profile, settings, className }: ServerTimeBannerProps) {
  useServerTimeBannersFollow(profile.serverTime);
  const grace = graceNotice(profile, new Date());
  if (grace) return <GraceBanner grace={grace} way={keepServerWay(profile, settings)} className={className} />;
  return <EndingSoonBanner profile={profile} settings={settings} className={className} />;
}
