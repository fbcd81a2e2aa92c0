import { banTemplates, adminUserLabels as t } from '@canopy/contract';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { Button, Input } from '../../../components/ui/index.ts';

type BanField = 'reason' | 'duration';

/**
 * The part of a react-hook-form form that BanFields uses: any form with string fields `reason` and `duration`
 * fits (the manage-user dialog's, and the bulk dialog's with its extra fields), without a cast.
 */
export interface BanForm {
  register(name: BanField): UseFormRegisterReturn<BanField>;
  setValue(name: BanField, value: string): void;
  clearErrors(): void;
}

/** Template buttons (section 9), then reason and duration with the duration syntax as a hint. */
export function BanFields({ form, disabled }: { form: BanForm; disabled: boolean }) {
  const fill = (reason: string, duration: string) => {
    form.setValue('reason', reason);
    form.setValue('duration', duration);
    form.clearErrors();
  };
  return (
    <div className="flex flex-col gap-2">
      <fieldset className="flex flex-wrap items-center gap-1.5" aria-label={t.banTemplates}>
        {banTemplates.map((tpl) => (
          <Button
            key={tpl.reason}
            size="sm"
            variant="secondary"
            disabled={disabled}
            onClick={() => fill(tpl.reason, tpl.duration)}
          >
            {tpl.reason} · {tpl.duration}
          </Button>
        ))}
      </fieldset>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Input
          label={t.reasonLabel}
          className="sm:flex-1"
          maxLength={200}
          disabled={disabled}
          {...form.register('reason')}
        />
        <Input
          label={t.durationLabel}
          hint={t.durationHint}
          className="sm:w-44"
          disabled={disabled}
          {...form.register('duration')}
        />
      </div>
    </div>
  );
}
