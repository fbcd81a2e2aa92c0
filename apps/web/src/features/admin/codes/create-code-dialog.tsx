import { type AdminCreateCode, expiryDayOf, adminContentLabels as labels, redeemCodeTypes } from '@canopy/contract';
import { useId, useState } from 'react';
import { type Resolver, useForm } from 'react-hook-form';
import { Button, Input, Modal, Select } from '../../../components/ui/index.ts';
import { useCreateCode } from './api/codes-api.ts';
import { CopyCodeButton } from './copy-code-button.tsx';
import { type NewCodeForm, newCodeDefaults, newCodeRequest } from './new-code-form.ts';

// The contract's schema decides; this only hands its verdict to react-hook-form.
const resolver: Resolver<NewCodeForm, unknown, AdminCreateCode> = (values) => {
  const result = newCodeRequest(values, Date.now());
  if (result.ok) return { values: result.body, errors: {} };
  const errors = Object.fromEntries(
    Object.entries(result.errors).map(([field, message]) => [field, { type: 'validate', message }]),
  );
  return { values: {}, errors };
};

/** The create-code dialog: the form, then the new code with a copy button once the api made it. */
export function CreateCodeDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const formId = useId();
  const create = useCreateCode();
  const [created, setCreated] = useState<string | null>(null);
  const form = useForm<NewCodeForm, unknown, AdminCreateCode>({ resolver, defaultValues: newCodeDefaults });
  const { errors } = form.formState;
  const type = form.watch('type');

  const close = () => {
    if (create.isPending) return;
    form.reset(newCodeDefaults);
    setCreated(null);
    onClose();
  };
  const submit = form.handleSubmit((body) => create.mutate(body, { onSuccess: (answer) => setCreated(answer.code) }));

  return (
    <Modal
      open={open}
      title={labels.createCode}
      onClose={close}
      footer={
        created ? (
          <Button onClick={close}>{labels.done}</Button>
        ) : (
          <>
            <Button variant="secondary" onClick={close} disabled={create.isPending}>
              {labels.cancel}
            </Button>
            <Button type="submit" form={formId} loading={create.isPending}>
              {labels.create}
            </Button>
          </>
        )
      }
    >
      {created ? (
        <div data-testid="admin-code-created" className="flex flex-col gap-2">
          <p className="text-ink-muted">{labels.createdHeading}</p>
          <div className="flex items-center justify-between gap-2 rounded-md border border-line bg-canvas px-3 py-2">
            <span data-testid="admin-code-created-text" className="break-all font-mono text-ink text-lg">
              {created}
            </span>
            <CopyCodeButton code={created} />
          </div>
        </div>
      ) : (
        <form id={formId} noValidate onSubmit={submit} className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <Select
            label={labels.typeLabel}
            options={redeemCodeTypes}
            className="sm:col-span-2"
            {...form.register('type')}
          />
          <Input
            label={labels.amountLabel}
            type="number"
            min={1}
            step={1}
            inputMode="numeric"
            hint={labels.amountHint[type]}
            error={errors.amount?.message}
            {...form.register('amount', { valueAsNumber: true })}
          />
          <Input
            label={labels.stockLabel}
            type="number"
            min={1}
            step={1}
            inputMode="numeric"
            hint={labels.stockHint}
            error={errors.stock?.message}
            {...form.register('stock', { valueAsNumber: true })}
          />
          <Input
            label={labels.suffixLabel}
            autoComplete="off"
            maxLength={12}
            hint={labels.suffixHint}
            error={errors.customSuffix?.message}
            {...form.register('customSuffix')}
          />
          <Input
            label={labels.expiryLabel}
            type="date"
            // Today (UTC, as the expiry is read): an earlier day would be refused.
            min={expiryDayOf(Date.now())}
            hint={labels.expiryHint}
            error={errors.expiryDate?.message}
            {...form.register('expiryDate')}
          />
          <label className="flex items-center gap-2 text-ink text-sm sm:col-span-2">
            <input type="checkbox" className="size-4 accent-emerald-500" {...form.register('isPublic')} />
            {labels.publicLabel}
          </label>
        </form>
      )}
    </Modal>
  );
}
