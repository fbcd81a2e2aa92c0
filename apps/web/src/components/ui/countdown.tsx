import { BAN_COUNTDOWN_REFRESH_MS, EXPIRY_COUNTDOWN_REFRESH_MS, type ServerTime } from '@canopy/contract';
import { useNow } from '../../hooks/use-now.ts';
import { type CountdownTone, describeBanCountdown, describeServerTime, serverTimePhase } from '../../lib/expiry.ts';

const tones: Record<CountdownTone, string> = {
  normal: 'text-ink',
  warning: 'text-yellow-400',
  danger: 'text-red-400',
  muted: 'text-ink-muted',
};

/**
 * Server time left from the profile's exact instants (the ones the scheduler acts on), ticking every
 * second while there is something to count; time waiting for the first server reads '… pending'.
 */
export function ExpiryCountdown({ time }: { time: ServerTime }) {
  const phase = serverTimePhase(time, new Date());
  const ticking = phase === 'running' || phase === 'grace';
  const now = useNow(ticking ? EXPIRY_COUNTDOWN_REFRESH_MS : null);
  const { text, tone } = describeServerTime(time, now);
  return (
    <span
      data-tone={tone}
      data-phase={serverTimePhase(time, now)}
      className={`font-medium tabular-nums ${tones[tone]}`}
    >
      {text}
      {phase === 'pending' && (
        <span className="block font-normal text-ink-muted text-xs">Starts when your server is created</span>
      )}
    </span>
  );
}

/** Time left of a ban (ISO end date, null when permanent), refreshed every BAN_COUNTDOWN_REFRESH_MS. */
export function BanCountdown({ expires }: { expires: string | null }) {
  const now = useNow(expires ? BAN_COUNTDOWN_REFRESH_MS : null);
  return <span className="tabular-nums">{describeBanCountdown(expires, now)}</span>;
}
