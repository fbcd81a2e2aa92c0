import { type AdminUserDetail, adminUserLabels as t } from '@canopy/contract';
import type { ReactNode } from 'react';
import { formatDateTime, formatMB } from '../../../../lib/format.ts';
import { banExpiryText } from '../../bans/ban-display.ts';
import { serverTimeText } from '../server-time-text.ts';
import { PlanBadge, StatusBadges } from '../user-badges.tsx';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-ink-muted text-xs">{label}</dt>
      <dd className="text-ink [overflow-wrap:anywhere]">{children}</dd>
    </div>
  );
}

/** What the dialog knows of the user (section 3): identity, plan, time, slots, storage, credit and the ban. */
export function UserSummary({ user }: { user: AdminUserDetail }) {
  const f = t.fields;
  const ban = user.BanInfo;
  return (
    <div className="flex flex-col gap-3">
      <StatusBadges user={user} />
      <dl data-testid="admin-user-summary" className="grid grid-cols-2 gap-x-4 gap-y-2 sm:grid-cols-3">
        <Field label={f.discordId}>{user.DiscordID}</Field>
        <Field label={f.username}>{user.DiscordUsername}</Field>
        <Field label={f.growId}>{user.GrowID ?? t.none}</Field>
        <Field label={f.server}>{user.ServerName ?? t.none}</Field>
        <Field label={f.plan}>
          <PlanBadge plan={user.AccountType} />
          {user.paidUntil && (
            <span className="ml-1 text-ink-muted text-xs">
              {f.paidUntil} {formatDateTime(user.paidUntil)}
            </span>
          )}
        </Field>
        <Field label={f.serverTime}>
          <span data-testid="admin-user-server-time">{serverTimeText(user.ServerTime.serverTime, new Date())}</span>
        </Field>
        <Field label={f.slots}>
          <span data-testid="admin-user-slots">{user.Slot}</span>
        </Field>
        <Field label={f.storage}>{t.storageUsage(formatMB(user.StorageUsedMB), formatMB(user.StorageLimitMB))}</Field>
        <Field label={f.credit}>{user.Credit}</Field>
      </dl>
      {ban && (
        <dl
          data-testid="admin-user-ban"
          className="grid grid-cols-2 gap-x-4 gap-y-2 rounded-lg border border-red-500/30 bg-red-500/5 px-3 py-2 sm:grid-cols-4"
        >
          <Field label={t.banInfo.reason}>{ban.reason}</Field>
          <Field label={t.banInfo.by}>{ban.bannedBy}</Field>
          <Field label={t.banInfo.at}>{formatDateTime(ban.bannedAt)}</Field>
          <Field label={t.banInfo.expires}>{banExpiryText(ban.expires)}</Field>
        </dl>
      )}
    </div>
  );
}
