import { GRACE_PERIOD_DAYS, type Profile, type Settings } from '@canopy/contract';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import {
  type EndingSoon,
  endingSoon,
  type KeepServerWay,
  keepServerWay,
  msUntilEndingSoonChanges,
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

/** endingSoon now, re-rendering exactly when it changes (one timer, no ticking while nothing shows). */
function useEndingSoon(profile: Pick<Profile, 'serverTime' | 'serverOwned'>): EndingSoon | null {
  const [, setChanges] = useState(0);
  const { serverTime } = profile;
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const schedule = () => {
      const wait = msUntilEndingSoonChanges(serverTime, new Date());
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
  return endingSoon(profile, new Date());
}

export interface EndingSoonBannerProps {
  profile: Profile;
  settings: Pick<Settings, 'disableShop'>;
  className?: string;
}

/**
 * The warning a day before the server time runs out (dashboard and server pages): when it stops, what follows
 * (the grace period, then deletion) and the way to keep it. Nothing for permanent time or without a server.
 */
export function EndingSoonBanner({ profile, settings, className }: EndingSoonBannerProps) {
  const soon = useEndingSoon(profile);
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
