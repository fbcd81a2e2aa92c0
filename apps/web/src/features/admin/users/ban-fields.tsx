import { banTemplates, adminUserLabels as t } from '@canopy/contract';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { Button, Input } from '../../../components/ui/index.ts';

export interface BanFieldsProps {
  /** `register('reason')` and `register('duration')` of the form holding them (manage-user or bulk dialog). */
  reason: UseFormRegisterReturn<'reason'>;
  duration: UseFormRegisterReturn<'duration'>;
  /** A template was picked: the form takes its reason and duration. */
  onTemplate: (reason: string, duration: string) => void;
  disabled: boolean;
}

/** Template buttons (section 9), then reason and duration with the duration syntax as a hint. */
export function BanFields({ reason, duration, onTemplate, disabled }: BanFieldsProps) {
  return (
    <div className="flex flex-col gap-2">
      <fieldset className="flex flex-wrap items-center gap-1.5" aria-label={t.banTemplates}>
        {banTemplates.map((tpl) => (
          <Button
            key={tpl.reason}
            size="sm"
            variant="secondary"
            disabled={disabled}
            onClick={() => onTemplate(tpl.reason, tpl.duration)}
          >
            {tpl.reason} · {tpl.duration}
          </Button>
        ))}
      </fieldset>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Input label={t.reasonLabel} className="sm:flex-1" maxLength={200} disabled={disabled} {...reason} />
        <Input label={t.durationLabel} hint={t.durationHint} className="sm:w-44" disabled={disabled} {...duration} />
      </div>
    </div>
  );
}
