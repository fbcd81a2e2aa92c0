import { adminAuditMessages as t } from '@canopy/contract';
import { Button, Input, Select } from '../../../components/ui/index.ts';
import type { ActivityLogFilters } from './api/get-logs.ts';

const actorOptions = [
  { value: '', label: t.allActors },
  ...['Admin', 'User', 'System'].map((value) => ({ value, label: value })),
];

/** The Activity Logs' filters under the search box: actor type, action, and a date range (whole UTC days). */
export function ActivityLogFilterBar({
  filters,
  onChange,
  active,
  onClear,
}: {
  filters: ActivityLogFilters;
  onChange: (key: keyof ActivityLogFilters, value: string) => void;
  active: boolean;
  onClear: () => void;
}) {
  return (
    <div className="flex flex-wrap items-end gap-3" data-testid="activity-log-filters">
      <Select
        label={t.actorTypeLabel}
        options={actorOptions}
        value={filters.actorType}
        onChange={(event) => onChange('actorType', event.target.value)}
        className="w-36"
      />
      <Input
        label={t.actionPlaceholder}
        value={filters.action}
        maxLength={100}
        placeholder="Server deleted"
        onChange={(event) => onChange('action', event.target.value)}
        className="w-48"
      />
      <Input
        label={t.fromLabel}
        type="date"
        value={filters.from}
        max={filters.to || undefined}
        onChange={(event) => onChange('from', event.target.value)}
        className="w-40"
      />
      <Input
        label={t.toLabel}
        type="date"
        value={filters.to}
        min={filters.from || undefined}
        onChange={(event) => onChange('to', event.target.value)}
        className="w-40"
      />
      {active && (
        <Button variant="ghost" onClick={onClear}>
          {t.clearFilters}
        </Button>
      )}
    </div>
  );
}
