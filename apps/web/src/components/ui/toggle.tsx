import { useId } from 'react';

export interface ToggleProps {
  checked: boolean;
  onChange: (checked: boolean) => void;
  label: string;
  disabled?: boolean;
  /** Smaller text under the label. */
  description?: string;
  /** Keeps the label for assistive tech only (a switch in a table cell under a column header). */
  hideLabel?: boolean;
}

/** An on/off switch (role="switch") with a clickable label. */
export function Toggle({ checked, onChange, label, disabled = false, description, hideLabel = false }: ToggleProps) {
  const id = useId();
  return (
    <div className={`flex items-start justify-between gap-4 ${disabled ? 'opacity-50' : ''}`}>
      <div className={hideLabel ? 'sr-only' : 'flex flex-col'}>
        <label htmlFor={id} className="font-medium text-ink text-sm">
          {label}
        </label>
        {description && (
          <span id={`${id}-description`} className="text-ink-muted text-xs">
            {description}
          </span>
        )}
      </div>
      <button
        id={id}
        type="button"
        role="switch"
        aria-checked={checked}
        aria-describedby={description ? `${id}-description` : undefined}
        disabled={disabled}
        onClick={() => onChange(!checked)}
        className={`relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors disabled:cursor-not-allowed ${
          checked ? 'bg-accent' : 'bg-slate-600'
        }`}
      >
        <span
          aria-hidden="true"
          className={`inline-block size-5 rounded-full bg-white shadow transition-transform ${
            checked ? 'translate-x-5.5' : 'translate-x-0.5'
          }`}
        />
      </button>
    </div>
  );
}
