import { adminPanelMessages, adminUserLabels as t, type UserChangeAction, userChangeActions } from '@canopy/contract';
import { useForm } from 'react-hook-form';
import { Button, Input, Select } from '../../../../components/ui/index.ts';
import { useUserAction } from '../api/user-actions.ts';
import { parseUserChange } from '../user-forms.ts';
import { FormError, fieldRow, Section } from './section.tsx';

export interface ChangeSectionProps {
  discordId: string;
  /** expiry: days of server time; slot: slots. Same body, same rules (section 7). */
  kind: 'expiry' | 'slot';
  disabled: boolean;
}

const actionOptions = userChangeActions.map((value) => ({ value, label: t.changeActions[value] }));

/** Add, remove or set server time (days) or slots. */
export function ChangeSection({ discordId, kind, disabled }: ChangeSectionProps) {
  const change = useUserAction(discordId, kind, adminPanelMessages.applyChange);
  const form = useForm<{ action: UserChangeAction; amount: string }>({ defaultValues: { action: 'add', amount: '' } });
  const onSubmit = form.handleSubmit(({ action, amount }) => {
    const parsed = parseUserChange(kind, action, amount);
    if (!parsed.ok) return form.setError('amount', { message: parsed.error });
    change.mutate(parsed.body, { onSuccess: () => form.reset({ action, amount: '' }) });
  });
  const label = kind === 'expiry' ? t.daysLabel : t.slotsLabel;
  return (
    <Section title={kind === 'expiry' ? t.fields.serverTime : t.fields.slots} testId={`admin-user-${kind}`}>
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-1">
        <div className={fieldRow}>
          <Select label={t.actionLabel} options={actionOptions} disabled={disabled} {...form.register('action')} />
          <Input
            label={label}
            inputMode="numeric"
            className="sm:w-28"
            disabled={disabled}
            aria-invalid={form.formState.errors.amount ? true : undefined}
            {...form.register('amount')}
          />
          <Button type="submit" variant="secondary" disabled={disabled} loading={change.isPending}>
            {t.apply}
          </Button>
        </div>
        <FormError message={form.formState.errors.amount?.message} />
      </form>
    </Section>
  );
}
