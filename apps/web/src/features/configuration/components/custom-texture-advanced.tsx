import { useId, useState } from 'react';
import { Input } from '../../../components/ui/index.ts';
import type { AdvancedOptions } from '../custom-items-logic.ts';
import { Chevron } from './custom-item-card.tsx';

export interface CustomTextureAdvancedProps {
  options: AdvancedOptions;
  onChange: (options: AdvancedOptions) => void;
}

// The spec's hints (server-management document, section 5).
const fields: { key: keyof AdvancedOptions; label: string; hint: string }[] = [
  { key: 'texture_x', label: 'Texture X', hint: 'Column of the 32x32 cell in the image (default 0).' },
  { key: 'texture_y', label: 'Texture Y', hint: 'Row of the 32x32 cell in the image (default 0).' },
  { key: 'clothing_type', label: 'Clothing Type', hint: '0 Hat, 1 Shirt, 6 Back (default Back).' },
  { key: 'item_kind', label: 'Item Kind', hint: '4 Solid Block, 7 Clothing (default Solid Block).' },
  { key: 'break_hits', label: 'Break Hits', hint: '0 means unbreakable.' },
  { key: 'grow_time', label: 'Grow Time', hint: 'In seconds.' },
  { key: 'collision_type', label: 'Collision Type', hint: '0 none, 1 full (default full).' },
];

/** The collapsible Advanced Options of the Custom Textures tab; an emptied field is not sent. */
export function CustomTextureAdvanced({ options, onChange }: CustomTextureAdvancedProps) {
  const [open, setOpen] = useState(false);
  const bodyId = useId();
  return (
    <div className="rounded-lg border border-line">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={bodyId}
        onClick={() => setOpen(!open)}
        className="flex w-full items-center gap-2 px-3 py-2 text-left font-medium text-ink text-sm"
        data-testid="custom-texture-advanced"
      >
        <Chevron open={open} />
        Advanced Options
      </button>
      {open && (
        <div id={bodyId} className="grid gap-3 border-line border-t p-3 sm:grid-cols-2">
          {fields.map(({ key, label, hint }) => (
            <Input
              key={key}
              label={label}
              hint={hint}
              inputMode="numeric"
              value={options[key]}
              data-testid={`custom-texture-${key}`}
              onChange={(e) => onChange({ ...options, [key]: e.target.value })}
            />
          ))}
        </div>
      )}
    </div>
  );
}
