import type { ComponentProps, ReactNode } from 'react';

export interface CardProps extends ComponentProps<'section'> {
  /** Card title, rendered as an h2 that also names the section. */
  heading?: ReactNode;
  /** Controls shown at the right of the header (buttons, pills). */
  actions?: ReactNode;
}

/** A raised slate panel with an optional header (heading + actions). */
export function Card({ heading, actions, className = '', children, ...rest }: CardProps) {
  return (
    <section className={`rounded-xl border border-line bg-surface p-4 shadow-sm sm:p-5 ${className}`} {...rest}>
      {(heading || actions) && (
        <header className="mb-4 flex items-center justify-between gap-3">
          {heading && <h2 className="font-semibold text-ink text-lg">{heading}</h2>}
          {actions && <div className="flex items-center gap-2">{actions}</div>}
        </header>
      )}
      {children}
    </section>
  );
}
