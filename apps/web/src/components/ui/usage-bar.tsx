import { formatSize } from '../../lib/format.ts';
import { type UsageLevel, usageLevel, usagePercent } from '../../lib/usage.ts';

const fills: Record<UsageLevel, string> = {
  normal: 'bg-blue-500',
  warning: 'bg-amber-500',
  danger: 'bg-red-500',
};

export interface UsageBarProps {
  usedMB: number;
  limitMB: number;
  label?: string;
}

/** A usage progress bar: blue up to 75 %, amber above, red above 90 %, with 'used / limit' text. */
export function UsageBar({ usedMB, limitMB, label = 'Storage' }: UsageBarProps) {
  const percent = usagePercent(usedMB, limitMB);
  const level = usageLevel(percent);
  const amount = `${formatSize(usedMB)} / ${formatSize(limitMB)}`;
  return (
    <div className="flex flex-col gap-1.5">
      <div className="flex justify-between text-sm">
        <span className="text-ink-muted">{label}</span>
        <span className="text-ink tabular-nums">{amount}</span>
      </div>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(percent)}
        aria-valuetext={`${amount} (${Math.round(percent)}%)`}
        data-level={level}
        className="h-2.5 overflow-hidden rounded-full bg-surface-raised"
      >
        <div className={`h-full rounded-full transition-[width] ${fills[level]}`} style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}
