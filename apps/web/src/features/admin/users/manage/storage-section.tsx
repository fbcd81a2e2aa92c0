import { adminPanelMessages, adminUserLabels as t } from '@canopy/contract';
import { useForm } from 'react-hook-form';
import { Button, Input } from '../../../../components/ui/index.ts';
import { useUserAction } from '../api/user-actions.ts';
import { parseStorage } from '../user-forms.ts';
import { FormError, fieldRow, Section } from './section.tsx';

/** The account's storage limit in MB, starting from the current one. */
export function StorageSection({
  discordId,
  limitMB,
  disabled,
}: {
  discordId: string;
  limitMB: number;
  disabled: boolean;
}) {
  const save = useUserAction(discordId, 'set-storage', adminPanelMessages.setStorage);
  const form = useForm<{ limitMB: string }>({ defaultValues: { limitMB: String(limitMB) } });
  const onSubmit = form.handleSubmit(({ limitMB: text }) => {
    const parsed = parseStorage(text);
    if (!parsed.ok) return form.setError('limitMB', { message: parsed.error });
    save.mutate(parsed.body);
  });
  return (
    <Section title={t.storageSection} testId="admin-user-storage">
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-1">
        <div className={fieldRow}>
          <Input
            label={t.storageLabel}
            inputMode="numeric"
            className="sm:w-40"
            disabled={disabled}
            {...form.register('limitMB')}
          />
          <Button type="submit" variant="secondary" disabled={disabled} loading={save.isPending}>
            {t.setStorage}
          </Button>
        </div>
        <FormError message={form.formState.errors.limitMB?.message} />
      </form>
    </Section>
  );
}
