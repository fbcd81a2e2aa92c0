/** Spinner sizes. */
export type SpinnerSize = 'sm' | 'md' | 'lg';

const sizes: Record<SpinnerSize, string> = {
  sm: 'size-3.5 border-2',
  md: 'size-6 border-2',
  lg: 'size-10 border-4',
};

export interface SpinnerProps {
  size?: SpinnerSize;
  /** Accessible name; defaults to 'Loading'. */
  label?: string;
  /** Hide from assistive tech when the surrounding element already says it is busy (buttons, pills). */
  decorative?: boolean;
  className?: string;
}

/** A spinning ring announced as a status ('Loading' unless labelled otherwise). */
export function Spinner({ size = 'md', label = 'Loading', decorative = false, className = '' }: SpinnerProps) {
  const ring = (
    <span
      className={`inline-block animate-spin rounded-full border-current border-t-transparent motion-reduce:animate-[spin_1.5s_linear_infinite] ${sizes[size]} ${className}`}
    />
  );
  if (decorative) return <span aria-hidden="true">{ring}</span>;
  return (
    <span role="status" aria-label={label} className="inline-flex">
      {ring}
    </span>
  );
}

/** A spinner centred in the whole viewport, for route-level loading. */
export function FullPageSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="flex min-h-screen items-center justify-center text-accent">
      <Spinner size="lg" label={label} />
    </div>
  );
}
