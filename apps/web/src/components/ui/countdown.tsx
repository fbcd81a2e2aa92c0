import { BAN_COUNTDOWN_REFRESH_MS, EXPIRY_COUNTDOWN_REFRESH_MS } from '@canopy/contract';
import { useMemo } from 'react';
import { useNow } from '../../hooks/use-now.ts';
import { parseExpiry } from '../../lib/date-parse.ts';
import { type CountdownTone, describeBanCountdown, describeExpiry } from '../../lib/expiry.ts';

const tones: Record<CountdownTone, string> = {
  normal: 'text-ink',
  warning: 'text-yellow-400',
  danger: 'text-red-400',
  muted: 'text-ink-muted',
};

/** Server time left from a profile's `estimatedExpiry` text, ticking every second while there is something to count. */
export function ExpiryCountdown({ estimatedExpiry }: { estimatedExpiry: string | null | undefined }) {
  const parsed = useMemo(() => parseExpiry(estimatedExpiry), [estimatedExpiry]);
  const ticking = parsed.kind === 'date' || parsed.kind === 'grace';
  const now = useNow(ticking ? EXPIRY_COUNTDOWN_REFRESH_MS : null);
  const { text, tone } = describeExpiry(parsed, now);
  return (
    <span data-tone={tone} className={`font-medium tabular-nums ${tones[tone]}`}>
      {text}
    </span>
  );
}

/** Time left of a ban (ISO end date, null when permanent), refreshed every BAN_COUNTDOWN_REFRESH_MS. */
export function BanCountdown({ expires }: { expires: string | null }) {
  const now = useNow(expires ? BAN_COUNTDOWN_REFRESH_MS : null);
  return <span className="tabular-nums">{describeBanCountdown(expires, now)}</span>;
}
