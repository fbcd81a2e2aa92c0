import {
  type BanLog,
  type BanLogsQuery,
  adminBanMessages as m,
  parseDuration,
  utcDateTimeText,
} from '@canopy/contract';
import { activityRepo } from '../../activity/activity.repo.ts';
import type { AppContext } from '../../context.ts';
import { conflict, forbidden, notFound } from '../../errors.ts';
import { RuntimeBusyError } from '../../runtime/types.ts';
import { serversRepo } from '../../servers/servers.repo.ts';
import { isBanActive } from '../../users/profile.ts';
import { type UserRow, usersRepo } from '../../users/users.repo.ts';
import { pageOf } from '../paging.ts';
import { lockForChange } from '../users/change-guard.ts';
import { bansRepo } from './bans.repo.ts';

/** The name an admin's actions are recorded under (ban logs, the banner's 'banned by', the activity log). */
export const actorNameOf = (u: UserRow) => u.grow_id ?? u.username;

/** How a user is named in answers and log details. */
const whoIs = (u: UserRow) => u.grow_id ?? u.username;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** Admins cannot be banned (admin document, section 4): said before the role rule, which would say less. */
export function refuseAdminBan(target: UserRow) {
  if (target.is_admin === 1 || target.is_super_admin === 1)
    throw forbidden(m.adminCannotBeBanned, 'admin_not_bannable');
}

/**
 * Bans a user (not an admin, not the caller's own account: change-guard.ts) for `duration` ('30d' … or
 * 'perm'; validated by the contract): the users
 * row, a ban log row and an activity entry in one transaction; a ban that still held is replaced (its
 * log row ends now). Then the user's sockets are told and their server is stopped (ADR 0020).
 */
export async function banUser(ctx: AppContext, admin: UserRow, targetId: string, reason: string, duration: string) {
  const now = ctx.now();
  const ms = parseDuration(duration);
  const expires = ms === null || ms === undefined ? null : now + ms;
  const actor = actorNameOf(admin);
  const done = await ctx.db.transaction(async (tx) => {
    const user = await lockForChange(tx, admin, targetId, refuseAdminBan);
    if (!user) throw notFound(m.userNotFound, 'user_not_found');
    // The same ban again (same reason, same end: a permanent one, in practice) changes nothing and logs nothing.
    const heldUntil = user.ban_expires === null ? null : Number(user.ban_expires);
    if (isBanActive(user, now) && user.ban_reason === reason && heldUntil === expires) return { user, changed: false };
    await bansRepo.setBan(tx, targetId, { reason, bannedBy: actor, bannedAt: now, expires });
    await bansRepo.closeOpenLogs(tx, targetId, now, actor);
    await bansRepo.addLog(tx, {
      user_id: targetId,
      discord_username: user.username,
      grow_id: user.grow_id,
      banned_by: actor,
      reason,
      banned_at: now,
      expires,
    });
    const until = expires === null ? 'permanently' : `until ${utcDateTimeText(expires)}`;
    await activityRepo.add(
      tx,
      {
        action: 'User banned',
        actorType: 'Admin',
        actorName: actor,
        details: `${whoIs(user)} (${targetId}) ${until}: ${reason}`,
      },
      now,
    );
    return { user, changed: true };
  });
  const { user } = done;
  if (!done.changed) return { message: m.alreadyBanned(whoIs(user), iso(expires)) };
  ctx.bus.emit('account', { userId: targetId, kind: 'banned' });
  // The ban holds once committed; the answer says so even if stopping the server hit a database error
  // (the start refusals still keep it from coming back, and the error is logged).
  await haltServerOf(ctx, targetId).catch((error) =>
    ctx.log.error({ err: error, userId: targetId }, 'the server of a banned owner could not be stopped'),
  );
  return { message: m.banned(whoIs(user), iso(expires)) };
}

/** Lifts a user's ban (409 when none holds); the ban's log row records who lifted it and when. */
export async function unbanUser(ctx: AppContext, admin: UserRow, targetId: string) {
  const now = ctx.now();
  const actor = actorNameOf(admin);
  const user = await ctx.db.transaction(async (tx) => {
    const user = await lockForChange(tx, admin, targetId);
    if (!user) throw notFound(m.userNotFound, 'user_not_found');
    if (!isBanActive(user, now)) throw conflict(m.notBanned, 'not_banned');
    await bansRepo.clearBan(tx, targetId);
    await bansRepo.closeOpenLogs(tx, targetId, now, actor);
    await activityRepo.add(
      tx,
      { action: 'User unbanned', actorType: 'Admin', actorName: actor, details: `${whoIs(user)} (${targetId})` },
      now,
    );
    return user;
  });
  ctx.bus.emit('account', { userId: targetId, kind: 'unbanned' });
  return { message: m.unbanned(whoIs(user)) };
}

/** How long a ban waits for a power action in progress on the user's server before it gives up stopping it. */
const HALT_PATIENCE_MS = 120_000;
const HALT_POLL_MS = 250;

/**
 * A banned owner's server does not run (ADR 0020): its desired state becomes stopped (so an api restart
 * does not bring it back) and it is stopped through the supervisor's power lock. A start or restart in
 * progress is waited for, then stopped; the waiting ends when the ban is lifted meanwhile.
 */
export async function haltServerOf(ctx: AppContext, ownerId: string) {
  const server = await serversRepo.findByOwner(ctx.db, ownerId);
  if (!server) return;
  await serversRepo.setDesiredState(ctx.db, server.id, 'stopped');
  void keepStopping(ctx, server.id, server.name, ownerId).catch((error) =>
    ctx.log.warn({ err: error, server: server.name }, 'the server of a banned owner could not be stopped'),
  );
}

async function keepStopping(ctx: AppContext, serverId: string, name: string, ownerId: string) {
  const deadline = Date.now() + HALT_PATIENCE_MS;
  await ctx.servers.settled(serverId);
  const runtime = ctx.servers.runtime;
  for (;;) {
    const owner = await usersRepo.findById(ctx.db, ownerId);
    if (!owner || !isBanActive(owner, ctx.now()) || runtime.isRemoved(serverId)) return;
    if (!runtime.isBusy(serverId)) {
      if (runtime.state(serverId).status === 'OFFLINE') return;
      try {
        await runtime.stop(serverId);
        await activityRepo.add(
          ctx.db,
          { action: 'Server stop', actorType: 'System', actorName: 'System', details: `${name}: its owner was banned` },
          ctx.now(),
        );
        return;
      } catch (error) {
        // Another action took the lock first: wait for it, then stop.
        if (!(error instanceof RuntimeBusyError)) throw error;
      }
    }
    if (Date.now() > deadline) throw new Error('a power action held the server past the ban');
    await new Promise((resolve) => setTimeout(resolve, HALT_POLL_MS));
  }
}

/** One page of the ban log, newest first, each row saying whether its ban still holds. */
export async function listBanLogs(ctx: AppContext, { page, ...filter }: BanLogsQuery) {
  const now = ctx.now();
  const { rows, total } = await bansRepo.logPage(ctx.db, page, filter);
  const items: BanLog[] = rows.map((r) => {
    const expires = r.expires === null ? null : Number(r.expires);
    return {
      id: r.id,
      discordId: r.user_id,
      discordUsername: r.discord_username,
      growId: r.grow_id,
      bannedBy: r.banned_by,
      reason: r.reason,
      bannedAt: new Date(Number(r.banned_at)).toISOString(),
      expires: iso(expires),
      unbannedAt: iso(r.unbanned_at === null ? null : Number(r.unbanned_at)),
      unbannedBy: r.unbanned_by,
      active: r.unbanned_at === null && (expires === null || expires > now),
    };
  });
  return pageOf(items, total, page);
}
