import { type Profile, redeemMessages } from '@canopy/contract';
import type { ReactNode } from 'react';
import { Avatar, Card, ExpiryCountdown, UsageBar } from '../../../components/ui/index.ts';
import { formatDate, formatDateTime } from '../../../lib/format.ts';
import { useRegisteredProfile } from '../../../lib/profile-query.ts';

/** The profile page (spec 2.7): avatar, game information and redemption history. */
export function ProfilePage() {
  const { profile } = useRegisteredProfile();
  return (
    <section className="flex flex-col gap-6">
      <header className="flex items-center gap-4">
        <Avatar user={profile} size={64} />
        <div>
          <h1 className="font-bold text-2xl text-ink">Profile</h1>
          <p className="text-ink-muted">
            {profile.username}#{profile.discriminator}
          </p>
        </div>
      </header>
      <Card heading="Game Information">
        <GameInformation profile={profile} />
      </Card>
      <Card heading="Redemption History">
        <RedemptionHistory codes={profile.redeemedCodes} />
      </Card>
    </section>
  );
}

function GameInformation({ profile }: { profile: Profile }) {
  const rows: [string, string, ReactNode][] = [
    ['GrowID', 'growid', profile.growId],
    ['Account Type', 'account-type', profile.accountType],
    ['Available Slots', 'slots', profile.availableSlot],
    ['Credit', 'credit', profile.credit],
    ['Registered', 'registered', formatDate(profile.registeredAt)],
    ['Server Time', 'expiry', <ExpiryCountdown key="expiry" time={profile.serverTime} />],
  ];
  return (
    <div className="flex flex-col gap-5">
      <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-2">
        {rows.map(([label, id, value]) => (
          <div
            key={label}
            data-testid={`profile-${id}`}
            className="flex justify-between gap-4 border-line/60 border-b pb-2 text-sm"
          >
            <dt className="text-ink-muted">{label}</dt>
            <dd className="text-right font-medium text-ink">{value}</dd>
          </div>
        ))}
      </dl>
      <UsageBar usedMB={profile.storageUsedMB} limitMB={profile.storageLimitMB} />
    </div>
  );
}

function RedemptionHistory({ codes }: { codes: Profile['redeemedCodes'] }) {
  if (codes.length === 0)
    return (
      <p data-testid="redemption-history-empty" className="text-ink-muted text-sm">
        {redeemMessages.noHistory}
      </p>
    );
  return (
    <ul data-testid="redemption-history" className="flex flex-col divide-y divide-line/60">
      {codes.map((c) => (
        <li
          key={`${c.code}-${c.redeemedAt}`}
          data-testid="redemption"
          data-code={c.code}
          className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm"
        >
          <span className="font-mono text-ink">{c.code}</span>
          <span className="text-accent">{c.reward}</span>
          <span data-testid="redemption-date" className="text-ink-muted">
            {formatDateTime(c.redeemedAt)}
          </span>
        </li>
      ))}
    </ul>
  );
}
