import { z } from 'zod';
import { adminCommonLabels } from './admin-labels.ts';
import { adminPageSchema } from './admin-paging.ts';
import { ADMIN_MAX_DAYS, ADMIN_MAX_SLOTS, adminUserMessages } from './admin-users.ts';
import { SERVER_NAME_MAX } from './constants.ts';
import { parseDuration, utcDateTimeText } from './duration.ts';
import type { AdminPermission } from './permissions.ts';

/** Longest ban reason (user ban or server-name ban) the api stores. */
export const BAN_REASON_MAX = 200;
/** Most users one bulk action may name. */
export const BULK_MAX_USERS = 100;
/** Default durations the ban dialogs offer (admin document, section 9). */
export const DEFAULT_BAN_DURATION = '30d';
export const DEFAULT_BULK_BAN_DURATION = '7d';

/** The ban dialog's templates (admin document, section 9). */
export const banTemplates = [
  { reason: 'Spamming/Flooding', duration: '7d' },
  { reason: 'Harassment', duration: '30d' },
  { reason: 'Exploiting/Cheating', duration: 'perm' },
  { reason: 'Inappropriate Content', duration: '14d' },
] as const;

/** Texts of bans, ban logs, banned server names and bulk actions (admin document, sections 5 and 8). */
export const adminBanMessages = {
  reasonAndDurationRequired: 'Reason and duration are required to ban a user.',
  reasonTooLong: `The reason must be at most ${BAN_REASON_MAX} characters.`,
  adminCannotBeBanned: 'Admins cannot be banned.',
  userNotFound: 'User not found.',
  notBanned: 'This user is not banned.',
  /** `expires` is ISO (or null: permanent); the text reads it in UTC (duration.ts utcDateTimeText). */
  banned: (who: string, expires: string | null) =>
    expires === null ? `${who} is banned permanently.` : `${who} is banned until ${utcDateTimeText(expires)}.`,
  unbanned: (who: string) => `${who} is unbanned.`,
  alreadyBanned: (who: string, expires: string | null) =>
    expires === null
      ? `${who} is already banned permanently for this reason; nothing changed.`
      : `${who} is already banned until ${utcDateTimeText(expires)} for this reason; nothing changed.`,
  serverNameAndReasonRequired: 'Server name and reason are required.',
  serverNameTooLong: `A server name is at most ${SERVER_NAME_MAX} characters.`,
  serverNameAlreadyBanned: 'This server name is already banned.',
  serverNameNotBanned: 'This server name is not banned.',
  serverNameBanned: (name: string) => `Server name ${name} is banned.`,
  serverNameUnbanned: (name: string) => `Server name ${name} is no longer banned.`,
  amountInvalid: 'Please enter a valid non-negative number.',
  bulkActionInvalid: 'Action must be one of ban, unban, addTime, removeTime, setTime, addSlots, removeSlots, setSlots.',
  bulkUsersRequired: 'Select at least one user.',
  bulkTooManyUsers: `A bulk action takes at most ${BULK_MAX_USERS} users.`,
  bulkDone: (applied: number, failed: number) =>
    failed === 0 ? `Applied to ${applied} user(s).` : `Applied to ${applied} user(s); ${failed} failed.`,
} as const;

const m = adminBanMessages;

/** A ban's reason: required, trimmed, bounded. */
const banReason = z
  .string({ error: m.reasonAndDurationRequired })
  .trim()
  .min(1, m.reasonAndDurationRequired)
  .max(BAN_REASON_MAX, m.reasonTooLong);

/**
 * A ban's duration ('30d', '2w', '12h', '30m', '45s' or 'perm'; duration.ts): an empty one is the spec's
 * 'required' text, a filled but malformed one ('7 days') says what a duration looks like.
 */
const banDuration = z
  .string({ error: m.reasonAndDurationRequired })
  .trim()
  .min(1, m.reasonAndDurationRequired)
  .refine((d) => parseDuration(d) !== undefined, adminUserMessages.durationInvalid);

/** POST /admin/users/{discordId}/ban. */
export const banUserSchema = z.object({ reason: banReason, duration: banDuration });
export type BanUserRequest = z.infer<typeof banUserSchema>;

/** One row of GET /admin/ban-logs (newest first). Dates are ISO; `expires` null means Permanent. */
export const banLogSchema = z.object({
  id: z.string(),
  discordId: z.string(),
  discordUsername: z.string(),
  growId: z.string().nullable(),
  bannedBy: z.string(),
  reason: z.string(),
  bannedAt: z.string(),
  expires: z.string().nullable(),
  /** Our addition: how the ban ended early (an unban, or a newer ban replacing it), if it did. */
  unbannedAt: z.string().nullable(),
  unbannedBy: z.string().nullable(),
  /** Our addition: this ban still holds (not lifted, not replaced, not run out): the tab offers Unban. */
  active: z.boolean(),
});
export type BanLog = z.infer<typeof banLogSchema>;
export const banLogPageSchema = adminPageSchema(banLogSchema);

/** One row of GET /admin/banned-servers (newest first). */
export const bannedServerNameSchema = z.object({
  serverName: z.string(),
  reason: z.string().nullable(),
  /** 'System' when no actor was recorded (names banned before the admin panel). */
  bannedBy: z.string(),
  bannedAt: z.string(),
});
export type BannedServerName = z.infer<typeof bannedServerNameSchema>;
export const bannedServerNamePageSchema = adminPageSchema(bannedServerNameSchema);

/** POST /admin/banned-servers: both fields required. The name is stored as given, matched without case. */
export const banServerNameSchema = z.object({
  serverName: z
    .string({ error: m.serverNameAndReasonRequired })
    .trim()
    .min(1, m.serverNameAndReasonRequired)
    .max(SERVER_NAME_MAX, m.serverNameTooLong),
  reason: z
    .string({ error: m.serverNameAndReasonRequired })
    .trim()
    .min(1, m.serverNameAndReasonRequired)
    .max(BAN_REASON_MAX, m.reasonTooLong),
});
export type BanServerNameRequest = z.infer<typeof banServerNameSchema>;

export const bulkActions = [
  'ban',
  'unban',
  'addTime',
  'removeTime',
  'setTime',
  'addSlots',
  'removeSlots',
  'setSlots',
] as const;
export type BulkAction = (typeof bulkActions)[number];

/**
 * What a bulk action needs: users:bulk_actions, and the permission of the single calls each of its actions
 * stands for (ban and unban, time and slot changes: users:manage). The api refuses a caller lacking one
 * before anything changes; the Users tab offers the bulk dialog only to a caller holding both.
 */
export const bulkActionPermissions = [
  'users:bulk_actions',
  'users:manage',
] as const satisfies readonly AdminPermission[];

/**
 * POST /admin/users/bulk-action: `ban` needs banInfo {reason, duration}; unban needs nothing; the time
 * actions take `amount` in days and the slot actions a slot count (non-negative whole numbers).
 */
export const bulkActionSchema = z
  .object({
    userIds: z
      .array(z.string().trim().min(1).max(64), { error: m.bulkUsersRequired })
      .min(1, m.bulkUsersRequired)
      .max(BULK_MAX_USERS, m.bulkTooManyUsers),
    action: z.enum(bulkActions, { error: m.bulkActionInvalid }),
    banInfo: z.unknown().optional(),
    amount: z.unknown().optional(),
  })
  // Checked here rather than per field, so that each refusal reads as the spec's text without a field prefix.
  .transform((body, ctx) => {
    const userIds = [...new Set(body.userIds)];
    if (body.action === 'ban') {
      const info = banUserSchema.safeParse(body.banInfo ?? {});
      if (!info.success) {
        ctx.addIssue({ code: 'custom', message: info.error.issues[0]?.message ?? m.reasonAndDurationRequired });
        return z.NEVER;
      }
      return { userIds, action: body.action, banInfo: info.data };
    }
    if (body.action === 'unban') return { userIds, action: body.action };
    const amount =
      typeof body.amount === 'string' && /^\s*\d+\s*$/.test(body.amount) ? Number(body.amount) : body.amount;
    // The single-user calls' bounds, so that a too large amount is one refusal rather than one per user.
    const max = body.action.endsWith('Time') ? ADMIN_MAX_DAYS : ADMIN_MAX_SLOTS;
    if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount < 0 || amount > max) {
      ctx.addIssue({ code: 'custom', message: m.amountInvalid });
      return z.NEVER;
    }
    return { userIds, action: body.action, amount };
  });
export type BulkActionRequest = z.infer<typeof bulkActionSchema>;

/**
 * One user a bulk action could not be applied to, with the refusal's text; `name` is the user's GrowID or
 * Discord username (null when no such user exists), so a toast need not name them by Discord ID.
 */
export const bulkActionErrorSchema = z.object({ userId: z.string(), name: z.string().nullable(), error: z.string() });
/** Answer of a bulk action (200 even when some users failed): each failure in `errors`, the rest applied. */
export const bulkActionResponseSchema = z.object({
  message: z.string(),
  applied: z.number().int().nonnegative(),
  errors: z.array(bulkActionErrorSchema),
});
export type BulkActionResponse = z.infer<typeof bulkActionResponseSchema>;

/** Labels of the Banned Servers and Ban Logs tabs (the spec leaves them open; section 8 has the toasts). */
export const adminBanLabels = {
  serverName: 'Server name',
  reason: 'Reason',
  bannedBy: 'Banned by',
  bannedAt: 'Banned at',
  actions: 'Actions',
  addHeading: 'Ban a server name',
  serverNamePlaceholder: 'Server name',
  reasonPlaceholder: 'Why the name is banned',
  add: 'Add ban',
  remove: 'Remove',
  removeTitle: 'Remove ban',
  removeConfirm: (name: string) => `Allow the server name "${name}" again?`,
  noBannedServers: 'No server names are banned.',
  noReason: 'No reason given',
  discordUsername: 'Discord username',
  growId: 'GrowID',
  discordId: 'Discord ID',
  expires: 'Expires',
  /** Ban display: an empty or null expiry (admin document, section 4). */
  permanent: adminCommonLabels.permanent,
  unban: 'Unban',
  unbanTitle: 'Unban user',
  unbanConfirm: (who: string) => `Lift the ban on ${who}?`,
  /** The Ban Logs tab's unban fallback (section 8: 'Unban failed'). */
  unbanFailed: 'Unban failed',
  ended: 'Ended',
  noBanLogs: 'No bans logged yet.',
  cancel: adminCommonLabels.cancel,
} as const;
