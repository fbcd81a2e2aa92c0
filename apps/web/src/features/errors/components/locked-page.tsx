import { LockIcon } from '../../../components/lock-icon.tsx';

/** Shown in place of a page the user may not open; the reason is the sidebar tooltip's text. */
export function LockedPage({ label, reason }: { label: string; reason: string }) {
  return (
    <section className="flex flex-col items-center gap-3 py-16 text-center">
      <LockIcon className="size-12 text-ink-muted" />
      <h1 className="font-bold text-2xl text-ink">{label} is locked</h1>
      <p data-testid="locked-reason" className="text-ink-muted">
        {reason}
      </p>
    </section>
  );
}
