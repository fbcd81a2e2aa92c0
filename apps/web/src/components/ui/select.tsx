import { type ComponentProps, useId } from 'react';

export interface SelectProps extends ComponentProps<'select'> {
  label: string;
  options: readonly { value: string; label: string }[] | readonly string[];
  /** Keeps the label for screen readers only (a compact selector inside a row). */
  hideLabel?: boolean;
}

/**
 * A labelled <select> in the style of `Input`. Spread react-hook-form's `register()` into it, or control it with
 * value/onChange. Options are values shown as themselves, or {value, label} pairs.
 */
export function Select({ label, options, hideLabel = false, id, className = '', ...rest }: SelectProps) {
  const autoId = useId();
  const selectId = id ?? autoId;
  return (
    <div className={`flex flex-col gap-1.5 ${className}`}>
      <label htmlFor={selectId} className={hideLabel ? 'sr-only' : 'font-medium text-ink text-sm'}>
        {label}
      </label>
      <select
        id={selectId}
        className="h-[38px] rounded-md border border-line bg-canvas px-3 text-ink text-sm focus:border-accent disabled:opacity-50"
        {...rest}
      >
        {options.map((option) => {
          const { value, label: text } = typeof option === 'string' ? { value: option, label: option } : option;
          return (
            <option key={value} value={value}>
              {text}
            </option>
          );
        })}
      </select>
    </div>
  );
}
