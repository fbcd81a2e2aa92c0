import { type AdminActivityLog, adminAuditMessages as t } from '@canopy/contract';
import { useState } from 'react';
import {
  DETAIL_PAIRS_SHOWN,
  detailPairs,
  detailsNeedExpand,
  detailsTitle,
  isPlainText,
  truncateText,
} from './log-details.ts';

/**
 * An entry's details as `key: value` lines. Collapsed, a long entry shows its first pairs cut to two lines each;
 * Show all opens it whole in place (the title keeps the full text for a hover too).
 */
export function LogDetails({ details }: { details: AdminActivityLog['details'] }) {
  const [open, setOpen] = useState(false);
  const pairs = detailPairs(details);
  const expandable = detailsNeedExpand(pairs);
  const shown = open ? pairs : pairs.slice(0, DETAIL_PAIRS_SHOWN);
  const keyed = !isPlainText(pairs);
  return (
    <div title={open ? undefined : detailsTitle(details)}>
      {/* Values wrap anywhere (long JSON has no spaces); the column takes the room left. */}
      <ul className="flex min-w-48 flex-col gap-0.5" data-testid="log-details">
        {shown.map((pair) => (
          <li
            key={pair.key}
            className={open ? 'whitespace-pre-wrap [overflow-wrap:anywhere]' : 'line-clamp-2 [overflow-wrap:anywhere]'}
          >
            {keyed && <span className="text-ink-muted">{pair.key}: </span>}
            <span className="text-ink">{open ? pair.value : truncateText(pair.value)}</span>
          </li>
        ))}
      </ul>
      {expandable && (
        <button
          type="button"
          aria-expanded={open}
          onClick={() => setOpen(!open)}
          className="mt-1 text-accent text-xs hover:underline"
        >
          {open ? t.showLess : t.showMore}
        </button>
      )}
    </div>
  );
}
