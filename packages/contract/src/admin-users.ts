import { z } from 'zod';
import { adminPageSchema } from './admin-paging.ts';
import { parseDuration, utcDateTimeText } from './duration.ts';
import { messages } from './messages.ts';
import type { AdminCaller } from './permissions.ts';
import { creditMessages, MAX_CREDIT_CHANGE } from './shop.ts';
import { banInfoSchema, serverTimeSchema } from './user.ts';

/** Largest number of days one admin time change may move (ten years, like the longest duration). */
export const ADMIN_MAX_DAYS = 3650;
/** Largest slot count one admin slot change may give or set. */
export const ADMIN_MAX_SLOTS = 1000;
/** Largest storage limit an admin may set (1 TB in MB). */
export const ADMIN_MAX_STORAGE_MB = 1_048_576;

/** The admin Users tab's texts (admin document, sections 5 and 8, and our own success messages). */
export const adminUserMessages = {
  amountInvalid: 'Please enter a valid non-negative number.',
  actionInvalid: 'Action must be add, remove or set.',
  storageInvalid: 'Please enter a valid, positive storage limit.',
  paidDurationRequired: 'A duration is required to set a Paid plan.',
  durationInvalid: "Duration must be a number followed by d, w, h, m or s (up to ten years), or 'perm'.",
  reasonTooLong: 'The reason must be at most 200 characters.',
  userNotFound: 'User not found.',
  timeUnlimited: 'This account has no end to its server time: there is no time to remove.',
  timeAdded: (days: number, who: string) => `Added ${days} day(s) of server time to ${who}.`,
  timeRemoved: (days: number, who: string) => `Removed ${days} day(s) of server time from ${who}.`,
  /** Fewer than the days asked were left: `removed` says how much went (durationText), the time ends now. */
  timeRemovedRest: (removed: string, asked: number, who: string) =>
    `Removed the ${removed} of server time ${who} had left (${asked} day(s) asked): their time ends now.`,
  timeAlreadyOver: (who: string) => `${who}'s server time has already run out: there is no time to remove.`,
  timeSet: (days: number, who: string) => `Set ${who}'s server time to ${days} day(s) from now.`,
  slotsAdded: (n: number, who: string) => `Added ${n} slot(s) to ${who}.`,
  slotsRemoved: (n: number, who: string) => `Removed ${n} slot(s) from ${who}.`,
  /** Fewer slots than asked were there: the answer names what was removed. */
  slotsRemovedRest: (removed: number, asked: number, who: string) =>
    `Removed the ${removed} slot(s) ${who} had (${asked} asked); they have none left.`,
  noSlotsToRemove: (who: string) => `${who} has no slots to remove.`,
  /** A change that would leave the account as it is: nothing is written, nothing is logged. */
  nothingChanged: (who: string) => `Nothing changed: the amount is 0, so ${who}'s account stays as it is.`,
  slotsAlready: (n: number, who: string) => `${who} already has ${n} slot(s); nothing changed.`,
  storageAlready: (mb: number, who: string) => `${who}'s storage limit is already ${mb} MB; nothing changed.`,
  freeAlready: (who: string) => `${who} is already on the Free plan; nothing changed.`,
  paidAlready: (who: string) => `${who} is already on the Paid plan with no end; nothing changed.`,
  slotsSet: (n: number, who: string) => `Set ${who}'s slots to ${n}.`,
  storageSet: (mb: number, who: string) => `Set ${who}'s storage limit to ${mb} MB.`,
  /** `until` is ISO (or null: no end); the text reads it in UTC (duration.ts utcDateTimeText). */
  paidSet: (who: string, until: string | null) =>
    until === null
      ? `${who} is now on the Paid plan with no end.`
      : `${who} is now on the Paid plan until ${utcDateTimeText(until)}.`,
  freeSet: (who: string) => `${who} is now on the Free plan.`,
  creditChanged: (amount: number, who: string, balance: number) =>
    amount > 0
      ? `Gave ${amount} credit(s) to ${who}; balance ${balance}.`
      : `Took ${-amount} credit(s) from ${who}; balance ${balance}.`,
  cannotChangeSelf: 'You cannot change your own account from the admin panel.',
  adminOutranks: "Only a super admin can change an admin's account.",
  superAdminOutranks: "A super admin's account cannot be changed from the admin panel.",
  bulkNeedsManage: 'Bulk actions also need the users:manage permission.',
} as const;

const m = adminUserMessages;

/** Who an account change concerns: its id and role. */
export interface AccountRole extends Pick<AdminCaller, 'isAdmin' | 'isSuperAdmin'> {
  id: string;
}

/** A role's rank: user < admin < super admin (admin document, section 4). */
const rankOf = (u: Pick<AdminCaller, 'isAdmin' | 'isSuperAdmin'>) => (u.isSuperAdmin ? 2 : u.isAdmin ? 1 : 0);

/**
 * Why `actor` may not change `target`'s account (time, slots, plan, storage, credit, ban), or null when they
 * may: never their own, and only an account of a lower role (a super admin changes admins and users, an admin
 * only users). The api refuses with this text; the panel disables the controls with it.
 */
export function accountChangeRefusal(actor: AccountRole, target: AccountRole): string | null {
  if (actor.id === target.id) return m.cannotChangeSelf;
  if (rankOf(target) < rankOf(actor)) return null;
  if (target.isSuperAdmin) return m.superAdminOutranks;
  return target.isAdmin ? m.adminOutranks : messages.missingPermission;
}

/** A whole number given as a number or as digits (a form field), else the value as it came. */
const wholeNumber = (v: unknown) => (typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v);

export const userChangeActions = ['add', 'remove', 'set'] as const;
export type UserChangeAction = (typeof userChangeActions)[number];

const changeBody = (max: number) =>
  z.object({
    action: z.enum(userChangeActions, { message: m.actionInvalid }),
    amount: z.preprocess(
      wholeNumber,
      z.number({ message: m.amountInvalid }).int(m.amountInvalid).min(0, m.amountInvalid).max(max, m.amountInvalid),
    ),
  });

/** POST /admin/users/{discordId}/expiry: days of server time (admin document, section 7). */
export const expiryChangeSchema = changeBody(ADMIN_MAX_DAYS);
/** POST /admin/users/{discordId}/slot. */
export const slotChangeSchema = changeBody(ADMIN_MAX_SLOTS);
export type UserChange = z.infer<typeof expiryChangeSchema>;

/** POST /admin/users/{discordId}/set-storage. */
export const setStorageSchema = z.object({
  limitMB: z.preprocess(
    wholeNumber,
    z
      .number({ message: m.storageInvalid })
      .int(m.storageInvalid)
      .min(1, m.storageInvalid)
      .max(ADMIN_MAX_STORAGE_MB, m.storageInvalid),
  ),
});

/** POST /admin/users/{discordId}/set-paid: a duration ('30d', 'perm'; duration.ts). */
export const setPaidSchema = z.object({
  duration: z
    .string({ message: m.paidDurationRequired })
    .trim()
    .min(1, m.paidDurationRequired)
    .refine((d) => parseDuration(d) !== undefined, m.durationInvalid),
});

/**
 * What a Paid plan grants while it lasts: its storage limit is at least this many MB (CANOPY_PAID_STORAGE_MB;
 * docs/decisions/0019-paid-plan.md). An account whose own limit is higher keeps its own.
 */
export const DEFAULT_PAID_STORAGE_MB = 1024;

/** Default duration offered for a Paid plan (admin document, section 9). */
export const DEFAULT_PAID_DURATION = '30d';

/** POST /admin/users/{discordId}/credit (our addition): a signed whole number; negative takes credits back. */
export const creditAdjustSchema = z.object({
  amount: z.preprocess(
    wholeNumber,
    z
      .number({ message: creditMessages.amountInvalid })
      .int(creditMessages.amountInvalid)
      .min(-MAX_CREDIT_CHANGE, creditMessages.amountInvalid)
      .max(MAX_CREDIT_CHANGE, creditMessages.amountInvalid)
      .refine((n) => n !== 0, creditMessages.amountInvalid),
  ),
  reason: z.string().trim().max(200, m.reasonTooLong).optional(),
});

/** Answer of POST /admin/users/{discordId}/credit: what changed, in words, and the account's new balance. */
export const creditAdjustResponseSchema = z.object({ message: z.string(), credit: z.int().nonnegative() });
export type CreditAdjustResponse = z.infer<typeof creditAdjustResponseSchema>;

/** A row of the Users tab (admin document, section 3: the spec's field names). */
export const adminUserRowSchema = z.object({
  DiscordID: z.string(),
  DiscordUsername: z.string(),
  GrowID: z.string().nullable(),
  ServerName: z.string().nullable(),
  AccountType: z.enum(['Free', 'Paid']),
  StorageUsedMB: z.number(),
  StorageLimitMB: z.number(),
  IsBanned: z.boolean(),
  isAdmin: z.boolean(),
  isSuperAdmin: z.boolean(),
});
export type AdminUserRow = z.infer<typeof adminUserRowSchema>;

/** GET /admin/all-users?page=&search=. */
export const adminUserPageSchema = adminPageSchema(adminUserRowSchema);

/** GET /admin/users/{discordId}: the row plus what the manage-user dialog shows. */
export const adminUserDetailSchema = adminUserRowSchema.extend({
  ServerTime: z.object({ serverTime: serverTimeSchema, estimatedExpiry: z.string() }),
  Slot: z.number(),
  Credit: z.number(),
  BanInfo: banInfoSchema.nullable(),
  paidUntil: z.string().nullable(),
});
export type AdminUserDetail = z.infer<typeof adminUserDetailSchema>;
