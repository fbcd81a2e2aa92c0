import { adminPanelMessages, adminUserLabels as t } from '@canopy/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { Button, Input } from '../../../../components/ui/index.ts';
import { CreditHistory, creditHistoryKey } from '../../../profile/components/credit-history.tsx';
import { useUserAction } from '../api/user-actions.ts';
import { parseCredit } from '../user-forms.ts';
import { FormError, fieldRow, Section } from './section.tsx';

/** Our addition: give (positive) or take back (negative) shop credits, with an optional reason; the user's history. */
export function CreditSection({ discordId, disabled }: { discordId: string; disabled: boolean }) {
  const adjust = useUserAction(discordId, 'credit', adminPanelMessages.adjustCredit);
  const queryClient = useQueryClient();
  const form = useForm<{ amount: string; reason: string }>({ defaultValues: { amount: '', reason: '' } });
  const onSubmit = form.handleSubmit(({ amount, reason }) => {
    const parsed = parseCredit(amount, reason);
    if (!parsed.ok) return form.setError('amount', { message: parsed.error });
    adjust.mutate(parsed.body, {
      onSuccess: () => {
        form.reset();
        void queryClient.invalidateQueries({ queryKey: creditHistoryKey(discordId) });
      },
    });
  });
  return (
    <Section title={t.creditSection} testId="admin-user-credit">
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-1">
        <div className={fieldRow}>
          <Input
            label={t.creditAmountLabel}
            inputMode="numeric"
            className="sm:w-40"
            disabled={disabled}
            {...form.register('amount')}
          />
          <Input
            label={t.creditReasonLabel}
            className="sm:flex-1"
            disabled={disabled}
            maxLength={200}
            {...form.register('reason')}
          />
          <Button type="submit" variant="secondary" disabled={disabled} loading={adjust.isPending}>
            {t.adjustCredit}
          </Button>
        </div>
        <FormError message={form.formState.errors.amount?.message} />
      </form>
      <CreditHistory userId={discordId} />
    </Section>
  );
}
