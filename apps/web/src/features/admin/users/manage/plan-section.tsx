import { type AdminUserRow, adminPanelMessages, DEFAULT_PAID_DURATION, adminUserLabels as t } from '@canopy/contract';
import { useForm } from 'react-hook-form';
import { Button, Input } from '../../../../components/ui/index.ts';
import { useUserAction } from '../api/user-actions.ts';
import { parsePaid } from '../user-forms.ts';
import { FormError, fieldRow, Section } from './section.tsx';

export interface PlanSectionProps {
  discordId: string;
  plan: AdminUserRow['AccountType'];
  disabled: boolean;
}

/** Free becomes Paid for a duration (default 30d); Paid returns to Free (section 4). */
export function PlanSection({ discordId, plan, disabled }: PlanSectionProps) {
  const paid = useUserAction(discordId, 'set-paid', adminPanelMessages.setPlan('Paid'));
  const free = useUserAction(discordId, 'set-free', adminPanelMessages.setPlan('Free'));
  const form = useForm<{ duration: string }>({ defaultValues: { duration: DEFAULT_PAID_DURATION } });
  const onSubmit = form.handleSubmit(({ duration }) => {
    const parsed = parsePaid(duration);
    if (!parsed.ok) return form.setError('duration', { message: parsed.error });
    paid.mutate(parsed.body);
  });
  return (
    <Section title={t.planSection} testId="admin-user-plan">
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-1">
        <div className={fieldRow}>
          <Input
            label={t.durationLabel}
            className="sm:w-32"
            disabled={disabled}
            aria-invalid={form.formState.errors.duration ? true : undefined}
            {...form.register('duration')}
          />
          <Button type="submit" variant="secondary" disabled={disabled} loading={paid.isPending}>
            {t.setPaid}
          </Button>
          <Button
            variant="ghost"
            disabled={disabled || plan === 'Free'}
            loading={free.isPending}
            onClick={() => free.mutate(undefined)}
          >
            {t.setFree}
          </Button>
        </div>
        <FormError message={form.formState.errors.duration?.message} />
        <p className="text-ink-muted text-xs">{t.durationHint}</p>
      </form>
    </Section>
  );
}
