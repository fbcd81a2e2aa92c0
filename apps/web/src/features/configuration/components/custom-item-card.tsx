import type { CustomItem } from '@canopy/contract';
import { useId } from 'react';
import { Button, Input, Toggle } from '../../../components/ui/index.ts';
import { CUSTOM_ITEM_FLAGS, CUSTOM_ITEM_NUMBER_FIELDS, parseIntOrZero } from '../custom-items-logic.ts';

export interface CustomItemCardProps {
  item: CustomItem;
  expanded: boolean;
  onToggle: () => void;
  onChange: (item: CustomItem) => void;
  onDelete: () => void;
}

/** A right-pointing chevron that turns down when open (a text glyph renders differently per font). */
export function Chevron({ open }: { open: boolean }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 20 20"
      className={`size-4 shrink-0 fill-current text-ink-muted transition-transform ${open ? 'rotate-90' : ''}`}
    >
      <path d="M7 4l7 6-7 6z" />
    </svg>
  );
}

const label = (key: string) => key.replace(/^property_/, '').replaceAll('_', ' ');

/** One custom item: a summary row that expands into every field of spec section 3. */
export function CustomItemCard({ item, expanded, onToggle, onChange, onDelete }: CustomItemCardProps) {
  const bodyId = useId();
  const set = (patch: Partial<CustomItem>) => onChange({ ...item, ...patch });
  const drops = item.Extra_Drops;
  const setDrop = (i: number, at: 0 | 1, text: string) =>
    set({
      Extra_Drops: drops.map((d, j) =>
        j === i ? (at === 0 ? [parseIntOrZero(text), d[1]] : [d[0], parseIntOrZero(text)]) : d,
      ),
    });

  return (
    <li data-testid="custom-item-card" className="rounded-lg border border-line bg-canvas">
      <div className="flex items-center justify-between gap-3 p-3">
        <button
          type="button"
          aria-expanded={expanded}
          aria-controls={bodyId}
          onClick={onToggle}
          className="flex min-w-0 flex-1 items-center gap-3 text-left"
        >
          <Chevron open={expanded} />
          <span className="rounded bg-surface-raised px-2 py-0.5 font-mono text-ink-muted text-xs">#{item.ID}</span>
          <span className="truncate font-medium text-ink">{item.Name || '(no name)'}</span>
          {item.texture && <span className="hidden text-accent text-xs sm:inline">texture</span>}
        </button>
        <Button variant="ghost" size="sm" onClick={onDelete} aria-label={`Delete ${item.Name}`}>
          Delete
        </Button>
      </div>
      {expanded && (
        <div id={bodyId} className="flex flex-col gap-4 border-line border-t p-3">
          <div className="grid gap-3 sm:grid-cols-2">
            <Input
              label="Name"
              value={item.Name}
              onChange={(e) => set({ Name: e.target.value })}
              data-testid="custom-item-name"
            />
            <label className="flex flex-col gap-1.5 font-medium text-ink text-sm sm:row-span-2">
              Desc
              <textarea
                value={item.Desc}
                rows={3}
                onChange={(e) => set({ Desc: e.target.value })}
                className="rounded-md border border-line bg-canvas px-3 py-2 font-normal text-ink text-sm focus:border-accent"
              />
            </label>
          </div>
          <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
            {CUSTOM_ITEM_NUMBER_FIELDS.map((key) => (
              <Input
                key={key}
                label={key}
                inputMode="numeric"
                value={String(item[key])}
                onChange={(e) => set({ [key]: parseIntOrZero(e.target.value) })}
                data-testid={`custom-item-${key}`}
              />
            ))}
          </div>
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-1 font-medium text-ink text-sm">Extra_Drops (item id, count)</legend>
            {drops.map(([id, count], i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity beyond their place
              <div key={i} className="flex items-end gap-2">
                <Input
                  label="Item id"
                  className="min-w-0 flex-1"
                  // A narrow intrinsic width, so that the row fits a phone; the input still fills its column.
                  size={1}
                  inputMode="numeric"
                  value={String(id)}
                  onChange={(e) => setDrop(i, 0, e.target.value)}
                />
                <Input
                  label="Count"
                  className="min-w-0 flex-1"
                  size={1}
                  inputMode="numeric"
                  value={String(count)}
                  onChange={(e) => setDrop(i, 1, e.target.value)}
                />
                <Button variant="secondary" onClick={() => set({ Extra_Drops: drops.filter((_, j) => j !== i) })}>
                  Remove
                </Button>
              </div>
            ))}
            <Button
              variant="secondary"
              size="sm"
              className="self-start"
              onClick={() => set({ Extra_Drops: [...drops, [0, 1]] })}
            >
              Add drop
            </Button>
          </fieldset>
          <div className="grid gap-3 sm:grid-cols-2">
            {CUSTOM_ITEM_FLAGS.map((key) => (
              <Toggle key={key} label={label(key)} checked={item[key]} onChange={(on) => set({ [key]: on })} />
            ))}
          </div>
          {item.texture && (
            <p className="text-ink-muted text-xs">
              Texture {item.texture.file} at ({item.texture.texture_x}, {item.texture.texture_y}), made on the Custom
              Textures tab.
            </p>
          )}
        </div>
      )}
    </li>
  );
}
