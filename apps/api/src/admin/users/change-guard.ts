import { type AdminPermission, accountChangeRefusal, hasAdminPermission } from '@canopy/contract';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/db.ts';
import { forbidden } from '../../errors.ts';
import { callerOf } from '../../http/route.ts';
import { adminCaller } from '../../users/profile.ts';
import { type UserRow, usersRepo } from '../../users/users.repo.ts';
import { rolesRepo } from '../roles/roles.repo.ts';

const roleOf = (u: UserRow) => ({ id: u.id, isAdmin: u.is_admin === 1, isSuperAdmin: u.is_super_admin === 1 });

/**
 * 403 when `actor` may not change `target`'s account: their own, or one of an equal or higher role (a super
 * admin changes admins and users, an admin only users; contract accountChangeRefusal).
 */
export function assertMayChange(actor: UserRow, target: UserRow): void {
  const refusal = accountChangeRefusal(roleOf(actor), roleOf(target));
  if (refusal) throw forbidden(refusal, actor.id === target.id ? 'cannot_change_self' : 'target_outranks');
}

/**
 * Reads the actor and the target under their row locks (in id order, as the role changes lock theirs) and
 * checks the change: a promotion or demotion committed meanwhile is seen, so no change slips past the rule
 * on a role read a moment before. Undefined for an unknown target (each caller has its own 404).
 */
export async function lockForChange(
  tx: Db,
  actor: UserRow,
  targetId: string,
  /** A refusal of the change's own that reads better than the role rule (Admins cannot be banned). */
  first?: (target: UserRow) => void,
): Promise<UserRow | undefined> {
  await rolesRepo.lock(tx, [actor.id, targetId]);
  const target = await usersRepo.findById(tx, targetId);
  if (!target) return undefined;
  first?.(target);
  // A caller whose row is gone has no role left.
  const self = (await usersRepo.findById(tx, actor.id)) ?? { ...actor, is_admin: 0, is_super_admin: 0 };
  assertMayChange(self, target);
  return target;
}

/**
 * `admit` of a route changing the account `:discordId`: refuses the caller's own account and one of an equal
 * or higher role before the body is read (after `first`, as lockForChange). An unknown id passes to the service's 404; the service checks
 * again under the row locks (lockForChange).
 */
export function admitAccountChange(ctx: AppContext, first?: (target: UserRow) => void) {
  return async ({ req }: { req: FastifyRequest }) => {
    const caller = callerOf(req);
    if (!caller) throw new Error('admitAccountChange needs a signed-in route');
    const id = (req.params as { discordId?: string }).discordId ?? '';
    const target = id === caller.user.id ? caller.user : await usersRepo.findById(ctx.db, id);
    if (!target) return () => {};
    first?.(target);
    assertMayChange(caller.user, target);
    return () => {};
  };
}

/** `admit` refusing (403, `message`) before the body a caller who lacks any of `permissions`. */
export function admitAlsoNeeds(permissions: readonly AdminPermission[], message: string) {
  return async ({ req }: { req: FastifyRequest }) => {
    const caller = callerOf(req);
    if (!caller) throw new Error('admitAlsoNeeds needs a signed-in route');
    const who = adminCaller(caller.user);
    if (!permissions.every((p) => hasAdminPermission(who, p))) throw forbidden(message, 'missing_permission');
    return () => {};
  };
}
