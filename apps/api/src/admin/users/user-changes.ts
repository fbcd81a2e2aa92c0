import { economyMessages, expiryChangeSchema, adminUserMessages as m, slotChangeSchema } from '@canopy/contract';
import { activityRepo } from '../../activity/activity.repo.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/db.ts';
import { addServerDays } from '../../economy/grants.ts';
import { badRequest, conflict, notFound } from '../../errors.ts';
import { serversRepo } from '../../servers/servers.repo.ts';
import type { UserRow } from '../../users/users.repo.ts';
import { lockForChange } from './change-guard.ts';

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

/**
 * Runs `work` in one transaction on the target's locked row, once `actor` may change it (change-guard.ts: not
 * their own account, nor one of an equal or higher role); 404 for an unknown user.
 */
export async function withLockedUser<T>(
  ctx: AppContext,
  actor: UserRow,
  targetId: string,
  work: (tx: Db, user: UserRow) => Promise<T>,
): Promise<T> {
  return ctx.db.transaction(async (tx) => {
    const user = await lockForChange(tx, actor, targetId);
    if (!user) throw notFound(m.userNotFound, 'unknown_user');
    return work(tx, user);
  });
}

const logAdmin = (tx: Db, actor: UserRow, action: string, details: string, now: number) =>
  activityRepo.add(tx, { action, actorType: 'Admin', actorName: displayName(actor), details }, now);

/** A span of time as a reader counts it: '2 day(s), 3 hour(s) and 5 minute(s)' (under a minute: seconds). */
export function spanText(ms: number): string {
  const units = [
    [DAY_MS, 'day'],
    [3_600_000, 'hour'],
    [60_000, 'minute'],
  ] as const;
  const parts: string[] = [];
  let rest = ms;
  for (const [size, name] of units) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n > 0) parts.push(`${n} ${name}(s)`);
  }
  if (parts.length === 0) return `${Math.max(1, Math.round(ms / 1000))} second(s)`;
  return parts.length === 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

/**
 * An admin's server-time change, in days.
 * - add: like a redeemed code (grants.addServerDays), except that an account whose time never started
 *   (no expiry, nothing banked: unlimited by serverTimeOf) gets it started: banked until its first server,
 *   or running from now when it has one. An account marked permanent is refused (409).
 * - remove: takes days off the expiry, never earlier than now (the time may end now, and the scheduler's
 *   grace rules follow); the answer says how much went when less was left than asked. An expiry already past
 *   is refused (409: nothing to remove). Banked time shrinks; removing all of it ends the time now rather than
 *   leaving nothing banked, which would read as unlimited. Unlimited is refused.
 * - add or remove 0 changes nothing: no write, no log entry.
 * - set: the remaining time becomes exactly N days from now (0: it ends now), also on a permanent or
 *   unlimited account: the admin says how long it lasts. Without a server the N days are banked for the
 *   first one (0 ends the time now).
 */
export async function changeServerDays(
  ctx: AppContext,
  actor: UserRow,
  targetId: string,
  req: ChangeRequest,
): Promise<{ message: string }> {
  const { action, amount } = parseChange(expiryChangeSchema, req);
  const now = ctx.now();
  return withLockedUser(ctx, actor, targetId, async (tx, u) => {
    const ms = amount * DAY_MS;
    const expires = u.server_expires_at === null ? null : Number(u.server_expires_at);
    const pending = Number(u.pending_server_ms);
    const permanent = u.server_permanent === 1;
    const unlimited = permanent || (expires === null && pending <= 0);
    const who = displayName(u);
    // Adding or removing nothing changes nothing: no write, no log entry (set 0 does change: it ends the time).
    if (amount === 0 && action !== 'set') return { message: m.nothingChanged(who) };
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
      // What is actually taken: never more than is left, so the answer says what went, not what was asked.
      let removed = ms;
      if (expires !== null) {
        if (expires <= now) throw conflict(m.timeAlreadyOver(who), 'server_time_over');
        const next = Math.max(expires - ms, now);
        removed = expires - next;
        await tx.run('UPDATE users SET server_expires_at = ? WHERE id = ?', [next, targetId]);
      } else if (ms >= pending) {
        removed = pending;
        await tx.run('UPDATE users SET server_expires_at = ?, pending_server_ms = 0 WHERE id = ?', [now, targetId]);
      } else await tx.run('UPDATE users SET pending_server_ms = ? WHERE id = ?', [pending - ms, targetId]);
      message = removed < ms ? m.timeRemovedRest(spanText(removed), amount, who) : m.timeRemoved(amount, who);
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
    await logAdmin(tx, actor, 'Server time changed', `${who} (${targetId}): ${action} ${amount} day(s)`, now);
    return { message };
  });
}

/** An admin's slot change: add, remove (never below 0) or set; one that changes nothing writes nothing. */
export async function changeSlots(
  ctx: AppContext,
  actor: UserRow,
  targetId: string,
  req: ChangeRequest,
): Promise<{ message: string }> {
  const { action, amount } = parseChange(slotChangeSchema, req);
  const now = ctx.now();
  return withLockedUser(ctx, actor, targetId, async (tx, u) => {
    const who = displayName(u);
    const current = Number(u.available_slot);
    if (action === 'remove' && current === 0 && amount > 0) throw conflict(m.noSlotsToRemove(who), 'no_slots');
    const next = action === 'add' ? current + amount : action === 'remove' ? Math.max(0, current - amount) : amount;
    if (next === current) return { message: action === 'set' ? m.slotsAlready(current, who) : m.nothingChanged(who) };
    await tx.run('UPDATE users SET available_slot = ? WHERE id = ?', [next, targetId]);
    await logAdmin(tx, actor, 'Slots changed', `${who} (${targetId}): ${action} ${amount}; now ${next}`, now);
    const removed = current - next;
    const message =
      action === 'add'
        ? m.slotsAdded(amount, who)
        : action === 'remove'
          ? removed < amount
            ? m.slotsRemovedRest(removed, amount, who)
            : m.slotsRemoved(amount, who)
          : m.slotsSet(amount, who);
    return { message };
  });
}
