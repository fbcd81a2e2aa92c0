import type { ComponentProps, ReactNode } from 'react';
import { useId } from 'react';

/** A titled block of the manage-user dialog. */
export function Section({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  return (
    <section data-testid={testId} className="flex flex-col gap-2 border-line border-t pt-4">
      <h3 className="font-semibold text-ink text-sm">{title}</h3>
      {children}
    </section>
  );
}

/** A labelled <select> in the style of `Input`; spread react-hook-form's `register()` into it. */
export function Select({
  label,
  options,
  className = '',
  ...rest
}: ComponentProps<'select'> & { label: string; options: readonly { value: string; label: string }[] }) {
  const id = useId();
  return (
    <div className={`flex flex-col gap-1.5 ${className}`}>
      <label htmlFor={id} className="font-medium text-ink text-sm">
        {label}
      </label>
      <select
        id={id}
        className="h-[38px] rounded-md border border-line bg-canvas px-3 text-ink text-sm focus:border-accent disabled:opacity-50"
        {...rest}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A form's error under its fields (the validation texts of section 5). */
export function FormError({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <p role="alert" className="text-red-400 text-xs">
      {message}
    </p>
  );
}

/** The row a section's fields and button sit in: stacked on a phone, side by side from `sm`. */
export const fieldRow = 'flex flex-col gap-2 sm:flex-row sm:items-end';
