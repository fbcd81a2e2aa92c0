import type { ReactNode } from 'react';
import { LockIcon } from '../../../components/lock-icon.tsx';

/**
 * Shown in place of a page the user may not open; the reason is the sidebar tooltip's text, and `children`
 * what the user can do instead, when something can.
 */
export function LockedPage({ label, reason, children }: { label: string; reason: string; children?: ReactNode }) {
  return (
    <section className="flex flex-col items-center gap-3 py-16 text-center">
      <LockIcon className="size-12 text-ink-muted" />
      <h1 className="font-bold text-2xl text-ink">{label} is locked</h1>
      <p data-testid="locked-reason" className="text-ink-muted">
        {reason}
      </p>
      {children && <p className="max-w-md text-ink-muted text-sm">{children}</p>}
    </section>
  );
}
