import type { ReactNode } from 'react';

/** Severity of a banner. */
export type BannerTone = 'info' | 'warning' | 'danger';

const tones: Record<BannerTone, string> = {
  info: 'border-sky-500/40 bg-sky-500/10 text-sky-100',
  warning: 'border-amber-500/40 bg-amber-500/10 text-amber-100',
  danger: 'border-red-500/40 bg-red-500/10 text-red-100',
};

export interface BannerProps {
  tone?: BannerTone;
  title?: ReactNode;
  children?: ReactNode;
  /** Shows a close button when given. */
  onDismiss?: () => void;
  className?: string;
  'data-testid'?: string;
}

/** A full-width notice (grace period, ban, storage...); danger banners are announced as alerts. */
export function Banner({ tone = 'info', title, children, onDismiss, className = '', ...rest }: BannerProps) {
  return (
    <div
      role={tone === 'danger' ? 'alert' : 'status'}
      data-tone={tone}
      data-testid={rest['data-testid']}
      className={`flex items-start gap-3 rounded-lg border px-4 py-3 text-sm ${tones[tone]} ${className}`}
    >
      <div className="flex-1">
        {title && <p className="font-semibold">{title}</p>}
        {children && <div className={title ? 'mt-1 opacity-90' : ''}>{children}</div>}
      </div>
      {onDismiss && (
        <button
          type="button"
          onClick={onDismiss}
          aria-label="Dismiss"
          className="-m-1 rounded p-1 leading-none opacity-70 hover:opacity-100"
        >
          ×
        </button>
      )}
    </div>
  );
}
