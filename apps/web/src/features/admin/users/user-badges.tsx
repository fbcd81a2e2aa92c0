import { type AdminUserRow, adminUserLabels as t } from '@canopy/contract';
import { Badge } from '../../../components/ui/index.ts';

/** The account's plan: Free or Paid. */
export function PlanBadge({ plan }: { plan: AdminUserRow['AccountType'] }) {
  return (
    <Badge tone={plan === 'Paid' ? 'warning' : 'neutral'} data-testid="plan-badge">
      {plan}
    </Badge>
  );
}

/** Banned, and the admin role (Super Admin rather than Admin when both hold); nothing for a plain user. */
export function StatusBadges({ user }: { user: Pick<AdminUserRow, 'IsBanned' | 'isAdmin' | 'isSuperAdmin'> }) {
  return (
    <span className="flex flex-wrap gap-1 whitespace-nowrap">
      {user.IsBanned && (
        <Badge tone="danger" data-testid="banned-badge">
          {t.badgeBanned}
        </Badge>
      )}
      {user.isSuperAdmin ? (
        <Badge tone="special">{t.badgeSuperAdmin}</Badge>
      ) : (
        user.isAdmin && <Badge tone="info">{t.badgeAdmin}</Badge>
      )}
    </span>
  );
}
