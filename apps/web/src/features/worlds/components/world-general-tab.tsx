import { weatherOptions } from '@canopy/contract';
import { useId } from 'react';
import { Input } from '../../../components/ui/index.ts';
import { asNumberText, asText, fromNumberText } from '../../../lib/json-draft.ts';
import type { WorldTabProps } from './world-editor-form.tsx';

/** Owner, entry level, category, weather (the contract's options) and music BPM. */
export function WorldGeneralTab({ draft, update, errors }: WorldTabProps) {
  const weatherId = useId();
  const weather = typeof draft.weather === 'number' ? draft.weather : Number.NaN;
  const known = weatherOptions.some((o) => o.id === weather);
  const number = (key: string) => ({
    type: 'number',
    value: asNumberText(draft[key]),
    error: errors[key],
    onChange: (event: { target: { value: string } }) => update({ [key]: fromNumberText(event.target.value) }),
  });
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <Input
        label="Owner"
        hint="The owner's GrowID; empty for no owner."
        value={asText(draft.owner)}
        error={errors.owner}
        onChange={(event) => update({ owner: event.target.value })}
      />
      <Input label="Entry Level" min={1} max={1000} {...number('entry_level')} />
      <Input label="Category (ct)" min={0} max={255} {...number('ct')} />
      <div className="flex flex-col gap-1.5">
        <label htmlFor={weatherId} className="font-medium text-ink text-sm">
          Weather
        </label>
        <select
          id={weatherId}
          value={Number.isNaN(weather) ? '' : String(weather)}
          onChange={(event) => update({ weather: Number(event.target.value) })}
          className="rounded-md border border-line bg-canvas px-3 py-2 text-ink text-sm focus:border-accent"
        >
          {weatherOptions.map((o) => (
            <option key={o.id} value={o.id}>
              {o.name}
            </option>
          ))}
          {!known && <option value={Number.isNaN(weather) ? '' : weather}>Custom ({asText(draft.weather)})</option>}
        </select>
        {errors.weather && <p className="text-red-400 text-xs">{errors.weather}</p>}
      </div>
      <Input label="Music BPM" min={1} max={1000} {...number('music_bpm')} />
    </div>
  );
}
