import type { Migration } from './migrations.ts';

/** Migration 22 (issue 24, admin audit filters), appended to the list in migrations.ts. */
export const migrationsFrom22: Migration[] = [
  {
    version: 22,
    name: 'indexes for the admin audit filters',
    // Activity Logs filtered by actor type and Feedback filtered by status are read newest first, a page at a time:
    // with the filter's column ahead of the time, the page is read from the index instead of sorting every match.
    // Text searches (LIKE '%text%') scan, stopped early by the time order and LIMIT; see ADR 0054.
    sql: `
    CREATE INDEX activity_logs_actor_time ON activity_logs (actor_type, timestamp);
    CREATE INDEX feedback_status_created ON feedback (status, created_at);
  `,
  },
];
