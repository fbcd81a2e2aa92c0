import { bulkActions, DEFAULT_BULK_BAN_DURATION, adminUserLabels as t } from '@canopy/contract';
import { useForm } from 'react-hook-form';
import { Button, Input, Modal, Select } from '../../../../components/ui/index.ts';
import { useBulkAction } from '../api/user-actions.ts';
import { BanFields } from '../ban-fields.tsx';
import { FormError } from '../manage/section.tsx';
import { type BulkForm, buildBulkBody, bulkFieldsOf } from './bulk-body.ts';

export interface BulkDialogProps {
  userIds: readonly string[];
  onClose: () => void;
  /** After a success (even a partial one): the tab clears its selection. */
  onDone: () => void;
}

const actionOptions = bulkActions.map((value) => ({ value, label: t.bulkActionLabels[value] }));

/** One action on every selected user: ban (reason, duration: 7d by default), unban, or time/slots by an amount. */
export function BulkDialog({ userIds, onClose, onDone }: BulkDialogProps) {
  const bulk = useBulkAction();
  const form = useForm<BulkForm>({
    defaultValues: { action: 'ban', reason: '', duration: DEFAULT_BULK_BAN_DURATION, amount: '' },
  });
  const fields = bulkFieldsOf(form.watch('action'));
  const onSubmit = form.handleSubmit((values) => {
    const built = buildBulkBody(userIds, values);
    if (!built.ok) return form.setError('root', { message: built.error });
    bulk.run(built.body, onDone);
  });
  const formId = 'admin-users-bulk-form';
  return (
    <Modal
      open
      title={t.bulkTitle(userIds.length)}
      onClose={() => !bulk.pending && onClose()}
      className="max-w-xl!"
      footer={
        <>
          <Button variant="ghost" disabled={bulk.pending} onClick={onClose}>
            {t.cancel}
          </Button>
          <Button type="submit" form={formId} variant={fields === 'ban' ? 'danger' : 'primary'} loading={bulk.pending}>
            {t.bulkRun}
          </Button>
        </>
      }
    >
      <form
        id={formId}
        data-testid="admin-users-bulk-dialog"
        noValidate
        onSubmit={onSubmit}
        className="flex flex-col gap-3"
      >
        <Select
          label={t.actionLabel}
          options={actionOptions}
          disabled={bulk.pending}
          {...form.register('action', { onChange: () => form.clearErrors() })}
        />
        {fields === 'ban' && <BanFields form={form} disabled={bulk.pending} />}
        {(fields === 'days' || fields === 'slots') && (
          <Input
            label={fields === 'days' ? t.bulkAmountDays : t.bulkAmountSlots}
            inputMode="numeric"
            className="sm:w-40"
            disabled={bulk.pending}
            {...form.register('amount')}
          />
        )}
        <FormError message={form.formState.errors.root?.message} />
      </form>
    </Modal>
  );
}
