import type { AdminLogsFilter } from '@canopy/contract';
import { containsPattern } from '../admin/paging.ts';
import type { SqlValue } from '../db/db.ts';

/** A WHERE clause and its arguments. */
export interface SqlFilter {
  where: string;
  args: SqlValue[];
}

/**
 * The Activity Logs' filters as SQL (both dialects): LIKE patterns with their wildcards escaped, compared with
 * lower-cased columns; the date range on the timestamp index. No filter: an empty clause.
 */
export function activityFilterSql(filter: AdminLogsFilter): SqlFilter {
  const parts: string[] = [];
  const args: SqlValue[] = [];
  if (filter.search) {
    const like = containsPattern(filter.search);
    parts.push(
      "(LOWER(action) LIKE ? ESCAPE '\\' OR LOWER(actor_name) LIKE ? ESCAPE '\\' OR LOWER(details) LIKE ? ESCAPE '\\')",
    );
    args.push(like, like, like);
  }
  if (filter.action) {
    parts.push("LOWER(action) LIKE ? ESCAPE '\\'");
    args.push(containsPattern(filter.action));
  }
  if (filter.actorType) {
    parts.push('actor_type = ?');
    args.push(filter.actorType);
  }
  if (filter.from !== undefined) {
    parts.push('timestamp >= ?');
    args.push(filter.from);
  }
  if (filter.to !== undefined) {
    parts.push('timestamp <= ?');
    args.push(filter.to);
  }
  return { where: parts.length ? `WHERE ${parts.join(' AND ')}` : '', args };
}
