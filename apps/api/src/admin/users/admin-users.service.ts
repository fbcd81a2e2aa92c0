import {
  type AdminUserDetail,
  type AdminUserRow,
  type CreditAdjustResponse,
  adminUserMessages as m,
  parseDuration,
  setPaidSchema,
  utcDateTimeText,
} from '@canopy/contract';
import { activityRepo } from '../../activity/activity.repo.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/db.ts';
import { badRequest, notFound } from '../../errors.ts';
import { grantCredits } from '../../payments/credits.service.ts';
import { paidPlanActive, toProfile } from '../../users/profile.ts';
import type { UserRow } from '../../users/users.repo.ts';
import { pageOf, pageWindow } from '../paging.ts';
import { type AdminUserSqlRow, adminUsersRepo } from './admin-users.repo.ts';
import { displayName, withLockedUser } from './user-changes.ts';

/** The Users tab's row (spec field names), from the profile's own rules for plan, storage and ban. */
function toRow(ctx: AppContext, u: AdminUserSqlRow): AdminUserRow {
  const p = toProfile(u, ctx.now(), null, ctx.config.paidStorageMB);
  return {
    DiscordID: u.id,
    DiscordUsername: u.username,
    GrowID: u.grow_id,
    ServerName: u.server_name,
    AccountType: p.accountType,
    StorageUsedMB: p.storageUsedMB,
    StorageLimitMB: p.storageLimitMB,
    IsBanned: p.isBanned,
    isAdmin: p.isAdmin,
    isSuperAdmin: p.isSuperAdmin,
  };
}

/** GET /admin/all-users: newest first, searched and paged in SQL. */
export async function listUsers(ctx: AppContext, page: number, search: string | undefined) {
  const { limit, offset } = pageWindow(page);
  const { rows, total } = await adminUsersRepo.page(ctx.db, search, limit, offset);
  return pageOf(
    rows.map((u) => toRow(ctx, u)),
    total,
    page,
  );
}

/** GET /admin/users/{discordId}: the row and what the manage-user dialog shows. */
export async function userDetail(ctx: AppContext, id: string): Promise<AdminUserDetail> {
  const u = await adminUsersRepo.findById(ctx.db, id);
  if (!u) throw notFound(m.userNotFound, 'unknown_user');
  const now = ctx.now();
  // The server it owns decides whether a run-out time is a grace period (see serverTimeOf).
  const p = toProfile(u, now, u.server_name ? { name: u.server_name } : null, ctx.config.paidStorageMB);
  const paid = p.accountType === 'Paid' && u.paid_until !== null;
  return {
    ...toRow(ctx, u),
    ServerTime: { serverTime: p.serverTime, estimatedExpiry: p.estimatedExpiry },
    Slot: p.availableSlot,
    Credit: p.credit,
    BanInfo: p.banInfo,
    paidUntil: paid ? new Date(Number(u.paid_until)).toISOString() : null,
  };
}

const log = (tx: Db, actor: UserRow, action: string, details: string, now: number) =>
  activityRepo.add(tx, { action, actorType: 'Admin', actorName: displayName(actor), details }, now);

/** POST /admin/users/{discordId}/set-storage: the account's own limit (a Paid plan may raise it further). */
export function setStorage(ctx: AppContext, actor: UserRow, targetId: string, limitMB: number) {
  const now = ctx.now();
  return withLockedUser(ctx, actor, targetId, async (tx, u) => {
    if (Number(u.storage_limit_mb) === limitMB) return { message: m.storageAlready(limitMB, displayName(u)) };
    await tx.run('UPDATE users SET storage_limit_mb = ? WHERE id = ?', [limitMB, targetId]);
    await log(tx, actor, 'Storage limit changed', `${displayName(u)} (${targetId}): ${limitMB} MB`, now);
    return { message: m.storageSet(limitMB, displayName(u)) };
  });
}

/**
 * POST /admin/users/{discordId}/set-paid: Paid from now for the duration ('perm': no end). A plan already
 * running is replaced, not extended: the admin states when it ends. 'perm' on a plan with no end changes
 * nothing and logs nothing.
 */
export function setPaid(ctx: AppContext, actor: UserRow, targetId: string, input: unknown) {
  const parsed = setPaidSchema.safeParse(input ?? {});
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? m.paidDurationRequired;
    throw message === m.durationInvalid ? badRequest(message, 'duration_invalid') : badRequest(m.paidDurationRequired);
  }
  // The schema has refused what is not a duration.
  const ms = parseDuration(parsed.data.duration) ?? null;
  const now = ctx.now();
  const until = ms === null ? null : now + ms;
  return withLockedUser(ctx, actor, targetId, async (tx, u) => {
    if (until === null && u.account_type === 'Paid' && u.paid_until === null)
      return { message: m.paidAlready(displayName(u)) };
    await tx.run("UPDATE users SET account_type = 'Paid', paid_until = ? WHERE id = ?", [until, targetId]);
    const untilText = until === null ? null : new Date(until).toISOString();
    await log(
      tx,
      actor,
      'Plan set to Paid',
      `${displayName(u)} (${targetId}): until ${until === null ? 'no end' : utcDateTimeText(until)}`,
      now,
    );
    return { message: m.paidSet(displayName(u), untilText) };
  });
}

/** POST /admin/users/{discordId}/set-free; an account already on Free (or whose Paid plan ran out) stays as it is. */
export function setFree(ctx: AppContext, actor: UserRow, targetId: string) {
  const now = ctx.now();
  return withLockedUser(ctx, actor, targetId, async (tx, u) => {
    if (!paidPlanActive(u, now)) return { message: m.freeAlready(displayName(u)) };
    await tx.run("UPDATE users SET account_type = 'Free', paid_until = NULL WHERE id = ?", [targetId]);
    await log(tx, actor, 'Plan set to Free', `${displayName(u)} (${targetId})`, now);
    return { message: m.freeSet(displayName(u)) };
  });
}

/**
 * POST /admin/users/{discordId}/credit (our addition): through grantCredits, which refuses going below zero,
 * in the same transaction as the check of who may change the account and the log entry.
 */
export async function adjustCredit(
  ctx: AppContext,
  actor: UserRow,
  targetId: string,
  amount: number,
  reason: string | undefined,
): Promise<CreditAdjustResponse> {
  const now = ctx.now();
  return withLockedUser(ctx, actor, targetId, async (tx, u) => {
    const result = await grantCredits(tx, targetId, amount, { reason: 'admin', actor: actor.id }, now);
    if (result.status !== 'granted') throw new Error('an admin credit change has no external ref');
    const who = displayName(u);
    await log(
      tx,
      actor,
      'Credit adjusted',
      `${who} (${targetId}): ${amount > 0 ? '+' : ''}${amount}${reason ? `, ${reason}` : ''}; balance ${result.balance}`,
      now,
    );
    return { message: m.creditChanged(amount, who, result.balance), credit: result.balance };
  });
}
