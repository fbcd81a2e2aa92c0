import {
  ADMIN_PAGE_SIZE,
  type AdminAccount,
  type AdminListQuery,
  type AdminPage,
  type AdminPermission,
  adminPermissions,
  adminRoleMessages as m,
} from '@canopy/contract';
import { isAdmin } from '../../access/account-access.ts';
import { activityRepo } from '../../activity/activity.repo.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/db.ts';
import { AppError, conflict, forbidden, notFound } from '../../errors.ts';
import { isBanActive, storedPermissions } from '../../users/profile.ts';
import { type UserRow, usersRepo } from '../../users/users.repo.ts';
import { adminActor, adminName } from '../content/admin-actor.ts';
import { pageOf, pageWindow } from '../paging.ts';
import { rolesRepo } from './roles.repo.ts';

/** The role moves of the admin document (section 4); each names the activity it logs. */
export type RoleMove = 'promoteAdmin' | 'removeAdmin' | 'promoteSuperAdmin' | 'demoteSuperAdmin';

const isSuper = (u: UserRow) => u.is_super_admin === 1;

/** Checks a move against the target's role and returns the role it leads to. */
function nextRole(move: RoleMove, target: UserRow, now: number): { isAdmin: boolean; isSuperAdmin: boolean } {
  switch (move) {
    case 'promoteAdmin':
      if (isAdmin(target)) throw conflict(m.alreadyAdmin, 'already_admin');
      // Admins cannot be banned: promoting a banned user (also one banned while this call waited for the
      // row lock) would make a banned admin, who could then lift their own ban.
      if (isBanActive(target, now)) throw conflict(m.bannedCannotBeAdmin, 'user_banned');
      return { isAdmin: true, isSuperAdmin: false };
    case 'removeAdmin':
      if (!isAdmin(target)) throw conflict(m.notAdmin, 'not_admin');
      // Super Admin → Admin → User, one step at a time: removing never skips the demotion.
      if (isSuper(target)) throw conflict(m.demoteFirst, 'demote_first');
      return { isAdmin: false, isSuperAdmin: false };
    case 'promoteSuperAdmin':
      if (isSuper(target)) throw conflict(m.alreadySuperAdmin, 'already_super_admin');
      if (!isAdmin(target)) throw conflict(m.onlyAdminPromoted, 'not_admin');
      return { isAdmin: true, isSuperAdmin: true };
    case 'demoteSuperAdmin':
      if (!isSuper(target)) throw conflict(m.notSuperAdmin, 'not_super_admin');
      return { isAdmin: true, isSuperAdmin: false };
  }
}

/** The activity log's action of each move. */
export const roleActions: Record<RoleMove, string> = {
  promoteAdmin: 'Admin added',
  removeAdmin: 'Admin removed',
  promoteSuperAdmin: 'Super admin added',
  demoteSuperAdmin: 'Super admin demoted',
};

const messageOf: Record<RoleMove, (who: string) => string> = {
  promoteAdmin: m.promoted,
  removeAdmin: m.removed,
  promoteSuperAdmin: m.promotedSuper,
  demoteSuperAdmin: m.demotedSuper,
};

/** One page of administrators for the Permissions tab. */
export async function listAdmins(ctx: AppContext, query: AdminListQuery): Promise<AdminPage<AdminAccount>> {
  const { limit, offset } = pageWindow(query.page);
  const { rows, total } = await rolesRepo.page(ctx.db, query.search, limit, offset);
  return pageOf(rows, total, query.page, ADMIN_PAGE_SIZE);
}

/**
 * Reads the caller and the target under their row locks: the caller must still be a super admin (two
 * super admins demoting each other at once cannot leave none), and never changes their own role.
 */
async function lockedPair(tx: Db, caller: UserRow, targetId: string) {
  if (targetId === caller.id) throw forbidden(m.cannotModifySelf, 'cannot_modify_self');
  await rolesRepo.lock(tx, [caller.id, targetId]);
  const self = await usersRepo.findById(tx, caller.id);
  if (!self || !isSuper(self)) throw forbidden(m.superAdminOnly, 'super_admin_only');
  const target = await usersRepo.findById(tx, targetId);
  if (!target) throw notFound(m.userNotFound, 'user_not_found');
  return target;
}

/** One role move by a super admin on another user, with its activity entry. */
export async function changeRole(
  ctx: AppContext,
  caller: UserRow,
  targetId: string,
  move: RoleMove,
): Promise<{ message: string }> {
  const now = ctx.now();
  return ctx.db.transaction(async (tx) => {
    const target = await lockedPair(tx, caller, targetId);
    await rolesRepo.setRole(tx, target.id, nextRole(move, target, now));
    const who = adminName(target);
    await activityRepo.add(
      tx,
      { action: roleActions[move], ...adminActor(caller), details: `${who} (${target.id})` },
      now,
    );
    return { message: messageOf[move](who) };
  });
}

/** An account's permission strings. */
export async function getPermissions(ctx: AppContext, targetId: string): Promise<{ permissions: AdminPermission[] }> {
  const target = await usersRepo.findById(ctx.db, targetId);
  if (!target) throw notFound(m.userNotFound, 'user_not_found');
  const stored = storedPermissions(target.admin_permissions);
  return { permissions: adminPermissions.filter((p) => stored.includes(p)) };
}

/** Replaces another admin's permission strings (already checked against the contract's list); logged when they change. */
export async function setPermissions(
  ctx: AppContext,
  caller: UserRow,
  targetId: string,
  permissions: readonly AdminPermission[],
): Promise<{ message: string }> {
  const now = ctx.now();
  return ctx.db.transaction(async (tx) => {
    const target = await lockedPair(tx, caller, targetId);
    if (!isAdmin(target)) throw conflict(m.notAdmin, 'not_admin');
    const who = adminName(target);
    // The same permissions again change nothing: no write, no log entry.
    const held = new Set(storedPermissions(target.admin_permissions));
    if (held.size === new Set(permissions).size && permissions.every((p) => held.has(p)))
      return { message: m.permissionsSaved(who) };
    await rolesRepo.setPermissions(tx, target.id, permissions);
    await activityRepo.add(
      tx,
      {
        action: 'Admin permissions changed',
        ...adminActor(caller),
        details: `${who}: ${permissions.join(', ') || 'none'}`,
      },
      now,
    );
    return { message: m.permissionsSaved(who) };
  });
}

/** Raised by the operator commands (scripts/canopy.ts). */
export class OperatorError extends AppError {}

/** The operator's `admin grant`: makes a signed-in-once Discord id a super admin. */
export async function grantSuperAdmin(db: Db, id: string, now: number): Promise<UserRow> {
  return db.transaction(async (tx) => {
    await rolesRepo.lock(tx, [id]);
    const user = await usersRepo.findById(tx, id);
    if (!user) throw new OperatorError(404, 'user_not_found', m.operatorUnknownUser(id));
    await rolesRepo.setRole(tx, id, { isAdmin: true, isSuperAdmin: true });
    await activityRepo.add(
      tx,
      {
        action: roleActions.promoteSuperAdmin,
        actorType: 'System',
        actorName: 'operator',
        details: `${adminName(user)} (${id})`,
      },
      now,
    );
    return user;
  });
}

/** The operator's `admin revoke`: takes every admin role from a user, never from the last super admin. */
export async function revokeAdmin(db: Db, id: string, now: number): Promise<UserRow> {
  return db.transaction(async (tx) => {
    // Two revokes (or a revoke and a demotion in the panel) at once must not both see two super admins: every
    // super admin's row is locked before the count, in id order as the panel's role changes lock theirs.
    await rolesRepo.lockSuperAdmins(tx);
    await rolesRepo.lock(tx, [id]);
    const user = await usersRepo.findById(tx, id);
    if (!user) throw new OperatorError(404, 'user_not_found', m.operatorUnknownUser(id));
    if (!isAdmin(user)) throw new OperatorError(409, 'not_admin', m.notAdmin);
    if (isSuper(user) && (await rolesRepo.countSuperAdmins(tx)) <= 1)
      throw new OperatorError(409, 'last_super_admin', m.lastSuperAdmin);
    await rolesRepo.setRole(tx, id, { isAdmin: false, isSuperAdmin: false });
    await activityRepo.add(
      tx,
      {
        action: roleActions.removeAdmin,
        actorType: 'System',
        actorName: 'operator',
        details: `${adminName(user)} (${id})`,
      },
      now,
    );
    return user;
  });
}
