import { ACTIVITY_EXPORT_MAX_ROWS, type AdminLogsFilter } from '@canopy/contract';
import { toLog } from '../admin/servers/admin-dashboard.service.ts';
import type { AppContext } from '../context.ts';
import { activityRepo } from './activity.repo.ts';
import { activityFilterSql } from './activity-filter.ts';
import { csvRow } from './csv.ts';

/** The export's columns, in the order the Activity Logs tab shows them. */
const HEADER = ['Timestamp', 'Action', 'Actor Type', 'Actor Name', 'Details'] as const;

/** The details as `key: value` pairs; an entry written as text (`{text}`) is that text alone. */
function detailsText(details: Record<string, unknown>): string {
  const keys = Object.keys(details);
  if (keys.length === 1 && keys[0] === 'text' && typeof details.text === 'string') return details.text;
  return Object.entries(details)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join('; ');
}

/**
 * GET /admin/logs/export: the filtered log as CSV, newest first, at most ACTIVITY_EXPORT_MAX_ROWS rows (a few MB:
 * built in memory, no stream to hold open); `truncated` says the filter matched more, so the admin narrows it.
 */
export async function exportActivityCsv(
  ctx: AppContext,
  filter: AdminLogsFilter,
): Promise<{ csv: string; truncated: boolean }> {
  const rows = await activityRepo.page(ctx.db, ACTIVITY_EXPORT_MAX_ROWS + 1, 0, activityFilterSql(filter));
  const truncated = rows.length > ACTIVITY_EXPORT_MAX_ROWS;
  let csv = csvRow(HEADER);
  for (const row of rows.slice(0, ACTIVITY_EXPORT_MAX_ROWS)) {
    const log = toLog(row);
    csv += csvRow([log.timestamp, log.action, log.actorType, log.actorName, detailsText(log.details)]);
  }
  return { csv, truncated };
}
