import { Input } from '../../../components/ui/index.ts';
import { asNumberText, fromNumberText } from '../../../lib/json-draft.ts';
import type { PlayerTabProps } from './player-editor-form.tsx';

const fields = [
  { key: 'level', label: 'Level', min: 1 },
  { key: 'gems', label: 'Gems', min: 0 },
  { key: 'xp', label: 'XP', min: 0 },
  { key: 'wl_bank_amount', label: 'World Lock Bank', min: 0 },
  { key: 'dl_bank_amount', label: 'Diamond Lock Bank', min: 0 },
] as const;

/** Level, gems, xp and the two lock bank amounts. */
export function PlayerStatsTab({ draft, update, errors }: PlayerTabProps) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {fields.map(({ key, label, min }) => (
        <Input
          key={key}
          label={label}
          type="number"
          min={min}
          value={asNumberText(draft[key])}
          error={errors[key]}
          onChange={(event) => update({ [key]: fromNumberText(event.target.value) })}
        />
      ))}
    </div>
  );
}
