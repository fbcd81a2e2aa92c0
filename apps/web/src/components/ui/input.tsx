import { type ComponentProps, useId } from 'react';

export interface InputProps extends ComponentProps<'input'> {
  label: string;
  /** Validation message; marks the input aria-invalid and describes it. */
  error?: string;
  /** Help text under the field, shown when there is no error. */
  hint?: string;
}

/**
 * A labelled text input with error text. Spread react-hook-form's `register()` into it: React 19
 * passes `ref` as an ordinary prop, so it reaches the <input>.
 */
export function Input({ label, error, hint, id, className = '', ...rest }: InputProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const noteId = `${inputId}-note`;
  const note = error ?? hint;
  return (
    <div className={`flex flex-col gap-1.5 ${className}`}>
      <label htmlFor={inputId} className="font-medium text-ink text-sm">
        {label}
      </label>
      <input
        id={inputId}
        aria-invalid={error ? true : undefined}
        aria-describedby={note ? noteId : undefined}
        className="rounded-md border border-line bg-canvas px-3 py-2 text-ink text-sm placeholder:text-slate-500 focus:border-accent disabled:opacity-50 aria-invalid:border-red-500"
        {...rest}
      />
      {note && (
        <p id={noteId} className={`text-xs ${error ? 'text-red-400' : 'text-ink-muted'}`}>
          {note}
        </p>
      )}
    </div>
  );
}
