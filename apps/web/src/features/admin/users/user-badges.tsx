import { type AdminUserRow, adminUsersUi as t } from '@canopy/contract';

const badge = 'inline-flex items-center rounded-full px-2 py-0.5 font-semibold text-xs ring-1 ring-inset';
const tones = {
  paid: 'bg-amber-500/15 text-amber-300 ring-amber-500/40',
  free: 'bg-slate-500/15 text-slate-300 ring-slate-500/40',
  banned: 'bg-red-500/15 text-red-300 ring-red-500/40',
  admin: 'bg-sky-500/15 text-sky-300 ring-sky-500/40',
  superAdmin: 'bg-fuchsia-500/15 text-fuchsia-300 ring-fuchsia-500/40',
} as const;

/** The account's plan: Free or Paid. */
export function PlanBadge({ plan }: { plan: AdminUserRow['AccountType'] }) {
  return (
    <span data-testid="plan-badge" className={`${badge} ${plan === 'Paid' ? tones.paid : tones.free}`}>
      {plan}
    </span>
  );
}

/** Banned, and the admin role (Super Admin rather than Admin when both hold); nothing for a plain user. */
export function StatusBadges({ user }: { user: Pick<AdminUserRow, 'IsBanned' | 'isAdmin' | 'isSuperAdmin'> }) {
  return (
    <span className="flex flex-wrap gap-1">
      {user.IsBanned && (
        <span data-testid="banned-badge" className={`${badge} ${tones.banned}`}>
          {t.badgeBanned}
        </span>
      )}
      {user.isSuperAdmin ? (
        <span className={`${badge} ${tones.superAdmin}`}>{t.badgeSuperAdmin}</span>
      ) : (
        user.isAdmin && <span className={`${badge} ${tones.admin}`}>{t.badgeAdmin}</span>
      )}
    </span>
  );
}
