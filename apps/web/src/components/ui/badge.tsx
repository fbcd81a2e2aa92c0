import type { ComponentProps } from 'react';

/** The badge colours, by meaning rather than by hue, so a tab picks a tone instead of copying classes. */
export type BadgeTone = 'neutral' | 'info' | 'success' | 'warning' | 'danger' | 'special';

const tones: Record<BadgeTone, string> = {
  neutral: 'bg-slate-500/15 text-slate-300 ring-slate-500/40',
  info: 'bg-sky-500/15 text-sky-300 ring-sky-500/40',
  success: 'bg-emerald-500/15 text-emerald-300 ring-emerald-500/40',
  warning: 'bg-amber-500/15 text-amber-300 ring-amber-500/40',
  danger: 'bg-red-500/10 text-red-300 ring-red-500/30',
  special: 'bg-violet-500/15 text-violet-300 ring-violet-500/40',
};

export interface BadgeProps extends ComponentProps<'span'> {
  tone: BadgeTone;
}

/** A small rounded label (a plan, a role, a status, a type); extra props (data-*) reach the <span>. */
export function Badge({ tone, className = '', ...rest }: BadgeProps) {
  return (
    <span
      className={`inline-flex items-center whitespace-nowrap rounded-full px-2.5 py-0.5 font-semibold text-xs ring-1 ring-inset ${tones[tone]} ${className}`}
      {...rest}
    />
  );
}
