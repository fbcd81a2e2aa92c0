import { Input } from '../../../components/ui/index.ts';
import { asNumberText, fromNumberText } from '../../../lib/json-draft.ts';
import { hasBit, hexToRgb, rgbToHex, toggleBit, WORLD_FLAG_BITS } from '../world-draft.ts';
import type { WorldTabProps } from './world-editor-form.tsx';

const channels = [
  { key: 'r', label: 'Red' },
  { key: 'g', label: 'Green' },
  { key: 'b', label: 'Blue' },
] as const;

const flagBits = Array.from({ length: WORLD_FLAG_BITS }, (_, bit) => bit);

const num = (v: unknown) => (typeof v === 'number' ? v : Number.NaN);

/** The background colour (r, g, b with a preview and a picker) and the w_s flags. */
export function WorldAppearanceTab({ draft, update, errors }: WorldTabProps) {
  const hex = rgbToHex(num(draft.r), num(draft.g), num(draft.b));
  const flags = num(draft.w_s);
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-end gap-4">
        {channels.map(({ key, label }) => (
          <Input
            key={key}
            label={label}
            type="number"
            min={0}
            max={255}
            className="w-24"
            value={asNumberText(draft[key])}
            error={errors[key]}
            onChange={(event) => update({ [key]: fromNumberText(event.target.value) })}
          />
        ))}
        <label className="flex flex-col gap-1.5 font-medium text-ink text-sm">
          Pick
          <input
            type="color"
            value={hex}
            onChange={(event) => {
              const rgb = hexToRgb(event.target.value);
              if (rgb) update(rgb);
            }}
            className="h-9 w-14 cursor-pointer rounded border border-line bg-canvas"
          />
        </label>
        <div
          data-testid="world-color-preview"
          role="img"
          aria-label={`Background colour ${hex}`}
          style={{ backgroundColor: hex }}
          className="h-9 flex-1 rounded-md border border-line"
        />
      </div>
      <div className="flex flex-col gap-3">
        <Input
          label="World Flags (w_s)"
          type="number"
          min={0}
          className="max-w-48"
          hint="A bitmask; the boxes below set its low bits."
          value={asNumberText(draft.w_s)}
          error={errors.w_s}
          onChange={(event) => update({ w_s: fromNumberText(event.target.value) })}
        />
        <fieldset className="flex flex-wrap gap-3">
          <legend className="sr-only">World flag bits</legend>
          {flagBits.map((bit) => (
            <label key={bit} className="flex items-center gap-1.5 text-ink-muted text-xs">
              <input
                type="checkbox"
                checked={hasBit(flags, bit)}
                onChange={() => update({ w_s: toggleBit(flags, bit) })}
                className="accent-emerald-500"
              />
              Bit {bit}
            </label>
          ))}
        </fieldset>
      </div>
    </div>
  );
}
