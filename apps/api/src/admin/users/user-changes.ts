import { economyMessages, expiryChangeSchema, adminUserMessages as m, slotChangeSchema } from '@canopy/contract';
import { activityRepo } from '../../activity/activity.repo.ts';
import { collaboratorsRepo } from '../../collaborators/collaborators.repo.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/db.ts';
import { addServerDays } from '../../economy/grants.ts';
import { badRequest, conflict, notFound } from '../../errors.ts';
import { serversRepo } from '../../servers/servers.repo.ts';
import { type UserRow, usersRepo } from '../../users/users.repo.ts';

const DAY_MS = 24 * 3600 * 1000;

/** What an admin's time or slot change asks: add, remove or set, an amount (days or slots). */
export interface ChangeRequest {
  action: unknown;
  amount: unknown;
}

/** The name an admin message and log use for an account: its GrowID, else its Discord name. */
export const displayName = (u: Pick<UserRow, 'grow_id' | 'username'>) => u.grow_id ?? u.username;

/** Validates a change with the contract's schema (the bulk action passes raw input): 400 with its text. */
function parseChange(schema: typeof expiryChangeSchema, req: ChangeRequest) {
  const parsed = schema.safeParse(req);
  if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? m.amountInvalid);
  return parsed.data;
}

/** Runs `work` in one transaction on the target's locked row; 404 for an unknown user. */
export async function withLockedUser<T>(
  ctx: AppContext,
  targetId: string,
  work: (tx: Db, user: UserRow) => Promise<T>,
): Promise<T> {
  return ctx.db.transaction(async (tx) => {
    await collaboratorsRepo.lockUser(tx, targetId);
    const user = await usersRepo.findById(tx, targetId);
    if (!user) throw notFound(m.userNotFound, 'unknown_user');
    return work(tx, user);
  });
}

const logAdmin = (tx: Db, actorName: string, action: string, details: string, now: number) =>
  activityRepo.add(tx, { action, actorType: 'Admin', actorName, details }, now);

/**
 * An admin's server-time change, in days.
 * - add: like a redeemed code (grants.addServerDays), except that an account whose time never started
 *   (no expiry, nothing banked: unlimited by serverTimeOf) gets it started: banked until its first server,
 *   or running from now when it has one. An account marked permanent is refused (409).
 * - remove: takes days off the expiry, never earlier than now (the time may end now, and the scheduler's
 *   grace rules follow); an expiry already past stays where it is. Banked time shrinks; removing all of it
 *   ends the time now rather than leaving nothing banked, which would read as unlimited. Unlimited is refused.
 * - set: the remaining time becomes exactly N days from now (0: it ends now), also on a permanent or
 *   unlimited account: the admin says how long it lasts. Without a server the N days are banked for the
 *   first one (0 ends the time now).
 */
export async function changeServerDays(
  ctx: AppContext,
  actorName: string,
  targetId: string,
  req: ChangeRequest,
): Promise<{ message: string }> {
  const { action, amount } = parseChange(expiryChangeSchema, req);
  const now = ctx.now();
  return withLockedUser(ctx, targetId, async (tx, u) => {
    const ms = amount * DAY_MS;
    const expires = u.server_expires_at === null ? null : Number(u.server_expires_at);
    const pending = Number(u.pending_server_ms);
    const permanent = u.server_permanent === 1;
    const unlimited = permanent || (expires === null && pending <= 0);
    const who = displayName(u);
    let message: string;
    if (action === 'add') {
      if (permanent) throw conflict(economyMessages.serverTimePermanent, 'server_time_permanent');
      if (unlimited) {
        // Start the clock: bank the days, then let addServerDays move them onto a running server's expiry.
        await tx.run('UPDATE users SET pending_server_ms = ? WHERE id = ?', [ms, targetId]);
        await addServerDays(tx, targetId, 0, now);
      } else await addServerDays(tx, targetId, amount, now);
      message = m.timeAdded(amount, who);
    } else if (action === 'remove') {
      if (unlimited) throw conflict(m.timeUnlimited, 'server_time_unlimited');
      if (expires !== null) {
        const next = Math.max(expires - ms, Math.min(expires, now));
        await tx.run('UPDATE users SET server_expires_at = ? WHERE id = ?', [next, targetId]);
      } else if (ms >= pending)
        await tx.run('UPDATE users SET server_expires_at = ?, pending_server_ms = 0 WHERE id = ?', [now, targetId]);
      else await tx.run('UPDATE users SET pending_server_ms = ? WHERE id = ?', [pending - ms, targetId]);
      message = m.timeRemoved(amount, who);
    } else {
      const hasServer = (await serversRepo.findByOwner(tx, targetId)) !== undefined;
      if (hasServer || ms === 0)
        await tx.run(
          'UPDATE users SET server_permanent = 0, server_expires_at = ?, pending_server_ms = 0 WHERE id = ?',
          [now + ms, targetId],
        );
      else
        await tx.run(
          'UPDATE users SET server_permanent = 0, server_expires_at = NULL, pending_server_ms = ? WHERE id = ?',
          [ms, targetId],
        );
      message = m.timeSet(amount, who);
    }
    await logAdmin(tx, actorName, 'Server time changed', `${who} (${targetId}): ${action} ${amount} day(s)`, now);
    return { message };
  });
}

/** An admin's slot change: add, remove (never below 0) or set. */
export async function changeSlots(
  ctx: AppContext,
  actorName: string,
  targetId: string,
  req: ChangeRequest,
): Promise<{ message: string }> {
  const { action, amount } = parseChange(slotChangeSchema, req);
  const now = ctx.now();
  return withLockedUser(ctx, targetId, async (tx, u) => {
    const current = Number(u.available_slot);
    const next = action === 'add' ? current + amount : action === 'remove' ? Math.max(0, current - amount) : amount;
    await tx.run('UPDATE users SET available_slot = ? WHERE id = ?', [next, targetId]);
    const who = displayName(u);
    await logAdmin(tx, actorName, 'Slots changed', `${who} (${targetId}): ${action} ${amount}; now ${next}`, now);
    const message =
      action === 'add'
        ? m.slotsAdded(amount, who)
        : action === 'remove'
          ? m.slotsRemoved(amount, who)
          : m.slotsSet(amount, who);
    return { message };
  });
}
