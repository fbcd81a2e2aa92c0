import { z } from 'zod';
import { ADMIN_SEARCH_MAX, adminListQuerySchema } from './admin-paging.ts';
import { FEEDBACK_STATUSES, FEEDBACK_TYPES } from './feedback.ts';
import { actorTypeSchema } from './hosting.ts';

/** Longest action name the Activity Logs filter accepts (actions are short phrases: 'Server deleted'). */
export const ADMIN_ACTION_MAX = 100;
/** Most rows one CSV export of the Activity Logs holds: an export is bounded like every answer (newest first). */
export const ACTIVITY_EXPORT_MAX_ROWS = 10_000;

/** Texts of the audit filters' refusals and labels (the spec leaves them open). */
export const adminAuditMessages = {
  badDate: (field: string) => `${field} must be a date (YYYY-MM-DD) or a date and time (ISO 8601).`,
  fromAfterTo: 'from must not be later than to.',
  badActorType: 'actorType must be one of: Admin, User, System.',
  badFeedbackType: `type must be one of: ${FEEDBACK_TYPES.join(', ')}.`,
  badFeedbackStatus: `status must be one of: ${FEEDBACK_STATUSES.join(', ')}.`,
  searchLabel: 'Search activity logs',
  searchPlaceholder: 'Search action, actor or details',
  actorTypeLabel: 'Actor type',
  noMatch: 'No entries match these filters.',
  feedbackSearchLabel: 'Search feedback',
  typeLabel: 'Type',
  statusLabel: 'Status',
  banLogSearchLabel: 'Search ban logs',
  bannedServerSearchLabel: 'Search banned servers',
  bannedServerSearchPlaceholder: 'Server name',
  actionPlaceholder: 'Action',
  allActors: 'All actors',
  fromLabel: 'From',
  toLabel: 'To',
  exportCsv: 'Export CSV',
  clearFilters: 'Clear filters',
  showMore: 'Show all',
  showLess: 'Show less',
  feedbackSearchPlaceholder: 'Search message, username or GrowID',
  allTypes: 'All types',
  allStatuses: 'All statuses',
  banLogSearchPlaceholder: 'Username, GrowID, Discord id or reason',
} as const;

const DAY_MS = 86_400_000;

/**
 * One bound of a date range as epoch ms: a bare date (YYYY-MM-DD, UTC) stands for its whole day, so `to` takes
 * the day's end and a range of one day reads as that day.
 */
const dateBound = (field: 'from' | 'to') =>
  z
    .string()
    .trim()
    .max(40, adminAuditMessages.badDate(field))
    .optional()
    .transform((v, ctx) => {
      if (!v) return undefined;
      const bare = /^\d{4}-\d{2}-\d{2}$/.test(v);
      const ms = Date.parse(bare ? `${v}T00:00:00Z` : v);
      if (!/^\d{4}-\d{2}-\d{2}/.test(v) || Number.isNaN(ms)) {
        ctx.addIssue({ code: 'custom', message: adminAuditMessages.badDate(field) });
        return z.NEVER;
      }
      return bare && field === 'to' ? ms + DAY_MS - 1 : ms;
    });

/** `from`/`to` of a dated admin list, checked in order. */
const dateRange = { from: dateBound('from'), to: dateBound('to') };
const inOrder = (q: { from?: number; to?: number }) => q.from === undefined || q.to === undefined || q.from <= q.to;

/** An optional text filter: trimmed, bounded, empty reads as none. */
const optionalText = (field: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, `${field} must be at most ${max} characters.`)
    .optional()
    .transform((v) => (v ? v : undefined));

/** Filters of the Activity Logs, shared by the page and the CSV export. */
const activityFilters = {
  search: optionalText('search', ADMIN_SEARCH_MAX),
  action: optionalText('action', ADMIN_ACTION_MAX),
  actorType: z.enum(actorTypeSchema.options, { error: adminAuditMessages.badActorType }).optional(),
  ...dateRange,
};

/**
 * Query of GET /admin/logs: `?page=&search=&action=&actorType=&from=&to=`. search matches the action, the
 * actor's name or the details anywhere; action matches the action anywhere; dates are inclusive.
 */
export const adminLogsQuerySchema = z
  .object({ page: adminListQuerySchema.shape.page, ...activityFilters })
  .refine(inOrder, { message: adminAuditMessages.fromAfterTo, path: ['from'] });
export type AdminLogsQuery = z.infer<typeof adminLogsQuerySchema>;

/** Query of GET /admin/logs/export: the Activity Logs' filters without a page. */
export const adminLogsExportQuerySchema = z
  .object(activityFilters)
  .refine(inOrder, { message: adminAuditMessages.fromAfterTo, path: ['from'] });
export type AdminLogsFilter = z.infer<typeof adminLogsExportQuerySchema>;

/** Query of GET /admin/ban-logs: `?page=&search=&from=&to=` (search: username, GrowID, Discord id or reason). */
export const banLogsQuerySchema = z
  .object({ ...adminListQuerySchema.shape, ...dateRange })
  .refine(inOrder, { message: adminAuditMessages.fromAfterTo, path: ['from'] });
export type BanLogsQuery = z.infer<typeof banLogsQuerySchema>;

/** Query of GET /admin/feedback: `?page=&search=&type=&status=` (search: message, username or GrowID). */
export const adminFeedbackQuerySchema = z.object({
  ...adminListQuerySchema.shape,
  type: z.enum(FEEDBACK_TYPES, { error: adminAuditMessages.badFeedbackType }).optional(),
  status: z.enum(FEEDBACK_STATUSES, { error: adminAuditMessages.badFeedbackStatus }).optional(),
});
export type AdminFeedbackQuery = z.infer<typeof adminFeedbackQuerySchema>;
