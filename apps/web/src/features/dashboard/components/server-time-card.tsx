import { Card, ExpiryCountdown } from '../../../components/ui/index.ts';
import { noServerTimeHint } from '../banner-state.ts';
import type { AccountCardProps } from '../card-props.ts';

/**
 * The Server Time card: the countdown (spec section 4), and for an account without a server whose time ran out
 * the way to get time again (there is no grace countdown without a server to delete).
 */
export function ServerTimeCard({ profile, settings, timeRanOut }: AccountCardProps) {
  const hint = noServerTimeHint(profile, settings, timeRanOut);
  return (
    <Card heading="Server Time">
      <p data-testid="server-time" className="text-lg">
        <ExpiryCountdown time={profile.serverTime} />
      </p>
      {hint && (
        <p data-testid="server-time-hint" className="mt-1 text-ink-muted text-sm">
          {hint}
        </p>
      )}
    </Card>
  );
}
