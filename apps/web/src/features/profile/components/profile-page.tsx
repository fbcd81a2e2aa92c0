import { creditPackMessages, type Profile, paidPlanLabels, redeemLabels, redeemMessages } from '@canopy/contract';
import type { ReactNode } from 'react';
import { Avatar, Card, ExpiryCountdown, UsageBar } from '../../../components/ui/index.ts';
import { formatDate, formatDateTime } from '../../../lib/format.ts';
import { useRegisteredProfile } from '../../../lib/profile-query.ts';
import { CreditHistory } from './credit-history.tsx';

/** The profile page (spec 2.7): avatar, game information, redemption history and credit history. */
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
      <Card heading={redeemLabels.redemptionHistory}>
        <RedemptionHistory codes={profile.redeemedCodes} />
      </Card>
      <Card heading={creditPackMessages.historyTitle}>
        <CreditHistory userId={profile.id} />
      </Card>
    </section>
  );
}

function GameInformation({ profile }: { profile: Profile }) {
  const rows: [string, string, ReactNode][] = [
    ['GrowID', 'growid', profile.growId],
    ['Account Type', 'account-type', <AccountType key="plan" profile={profile} />],
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

/** Free, or Paid with its end: the plan raises the storage limit while it lasts (docs/decisions/0019-paid-plan.md). */
function AccountType({ profile }: { profile: Profile }) {
  if (profile.accountType === 'Free') return 'Free';
  return (
    <span className="flex flex-col items-end">
      <span>Paid</span>
      <span data-testid="profile-paid-until" className="font-normal text-ink-muted text-xs">
        {profile.paidUntil ? paidPlanLabels.until(formatDateTime(profile.paidUntil)) : paidPlanLabels.noEndDate}
      </span>
    </span>
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
          // Columns line up from row to row; on a phone the date goes under the code and reward.
          className="grid grid-cols-[minmax(0,1fr)_auto] items-baseline gap-x-4 gap-y-0.5 py-2 text-sm sm:grid-cols-[minmax(0,16rem)_minmax(0,1fr)_auto]"
        >
          <span className="break-all font-mono text-ink">{c.code}</span>
          <span className="text-right text-accent sm:text-left">{c.reward}</span>
          <span data-testid="redemption-date" className="col-span-2 text-ink-muted text-xs sm:col-span-1 sm:text-sm">
            {formatDateTime(c.redeemedAt)}
          </span>
        </li>
      ))}
    </ul>
  );
}
