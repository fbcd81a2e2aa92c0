import {
  type AdminFeedback,
  FEEDBACK_STATUSES,
  type FeedbackStatus,
  type FeedbackType,
  adminContentLabels as labels,
} from '@canopy/contract';
import { Badge, type BadgeTone, Button, Select } from '../../../components/ui/index.ts';
import { formatDateTime } from '../../../lib/format.ts';

const typeTones: Record<FeedbackType, BadgeTone> = {
  'Bug Report': 'danger',
  Suggestion: 'info',
  'General Feedback': 'neutral',
};

export interface FeedbackEntryProps {
  entry: AdminFeedback;
  /** The status the selector shows (the one just chosen while it is being saved). */
  status: FeedbackStatus;
  /** Absent without feedback:manage: the selector is then read-only and there is no delete. */
  onStatus?: (status: FeedbackStatus) => void;
  onDelete?: () => void;
  /** A status change of this entry is on its way. */
  busy: boolean;
}

/** One feedback message: type, sender, time, status selector, delete, and the message as written. */
export function FeedbackEntry({ entry, status, onStatus, onDelete, busy }: FeedbackEntryProps) {
  return (
    <li data-testid="admin-feedback-entry" data-id={entry.id} className="flex flex-col gap-3 p-4">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <Badge tone={typeTones[entry.type]}>{entry.type}</Badge>
        <span className="text-ink text-sm">
          <span className="text-ink-muted">{labels.submittedBy} </span>
          <span className="font-medium">{entry.submittedByUsername}</span>
          <span className="text-ink-muted"> ({entry.submittedByGrowId ?? labels.noGrowId})</span>
        </span>
        <time dateTime={entry.timestamp} className="text-ink-muted text-xs">
          {formatDateTime(entry.timestamp)}
        </time>
        <div className="ml-auto flex items-center gap-2">
          <Select
            label={labels.statusLabel}
            hideLabel
            options={FEEDBACK_STATUSES}
            value={status}
            disabled={!onStatus || busy}
            onChange={(event) => onStatus?.(event.target.value as FeedbackStatus)}
          />
          {onDelete && (
            <Button size="sm" variant="danger" onClick={onDelete}>
              {labels.delete}
            </Button>
          )}
        </div>
      </div>
      {/* Users write line breaks and long unbroken strings (links, logs): keep the first, wrap the second. */}
      <p className="whitespace-pre-wrap break-words text-ink text-sm [overflow-wrap:anywhere]">{entry.message}</p>
    </li>
  );
}
