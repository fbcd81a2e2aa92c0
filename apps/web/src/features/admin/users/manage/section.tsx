import type { ReactNode } from 'react';

/** A titled block of the manage-user dialog. */
export function Section({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  return (
    <section data-testid={testId} className="flex flex-col gap-2 border-line border-t pt-4">
      <h3 className="font-semibold text-ink text-sm">{title}</h3>
      {children}
    </section>
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
