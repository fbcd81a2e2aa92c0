import { type AdminUserDetail, adminPanelMessages, DEFAULT_BAN_DURATION, adminUserLabels as t } from '@canopy/contract';
import { useForm } from 'react-hook-form';
import { Button } from '../../../../components/ui/index.ts';
import { useUserAction } from '../api/user-actions.ts';
import { BanFields } from '../ban-fields.tsx';
import { parseBan } from '../user-forms.ts';
import { FormError, Section } from './section.tsx';

export interface BanSectionProps {
  user: AdminUserDetail;
  disabled: boolean;
}

/** Ban (templates, reason, duration; admins cannot be banned) and Unban when the user is banned. */
export function BanSection({ user, disabled }: BanSectionProps) {
  const id = user.DiscordID;
  const ban = useUserAction(id, 'ban', adminPanelMessages.banUser);
  const unban = useUserAction(id, 'unban', adminPanelMessages.unbanUser, adminPanelMessages.userUnbanned);
  const form = useForm<{ reason: string; duration: string }>({
    defaultValues: { reason: '', duration: DEFAULT_BAN_DURATION },
  });
  // Section 4: admins cannot be banned; the api refuses it too.
  const isAdmin = user.isAdmin || user.isSuperAdmin;
  const onSubmit = form.handleSubmit(({ reason, duration }) => {
    const parsed = parseBan(reason, duration);
    if (!parsed.ok) return form.setError('root', { message: parsed.error });
    ban.mutate(parsed.body, { onSuccess: () => form.reset() });
  });
  return (
    <Section title={t.banSection} testId="admin-user-ban-section">
      {user.IsBanned && (
        <div>
          <Button
            variant="secondary"
            data-testid="admin-user-unban"
            disabled={disabled}
            loading={unban.isPending}
            onClick={() => unban.mutate(undefined)}
          >
            {t.unban}
          </Button>
        </div>
      )}
      {isAdmin ? (
        <p data-testid="admin-user-ban-admin" className="text-ink-muted text-xs">
          {t.adminsCannotBeBanned}
        </p>
      ) : (
        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-2">
          <BanFields form={form} disabled={disabled} />
          <FormError message={form.formState.errors.root?.message} />
          <div>
            <Button type="submit" variant="danger" disabled={disabled} loading={ban.isPending}>
              {t.ban}
            </Button>
          </div>
        </form>
      )}
    </Section>
  );
}
