import { type BulkActionRequest, type BulkActionResponse, adminBanMessages as m } from '@canopy/contract';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { type UserRow, usersRepo } from '../../users/users.repo.ts';
import { changeServerDays, changeSlots } from '../users/user-changes.ts';
import { actorNameOf, banUser, unbanUser } from './bans.service.ts';

const timeOrSlots = {
  addTime: ['time', 'add'],
  removeTime: ['time', 'remove'],
  setTime: ['time', 'set'],
  addSlots: ['slots', 'add'],
  removeSlots: ['slots', 'remove'],
  setSlots: ['slots', 'set'],
} as const;

/** Applies one bulk action to one user, through the same service the single-user call uses. */
function applyOne(ctx: AppContext, admin: UserRow, userId: string, body: BulkActionRequest): Promise<unknown> {
  if (body.action === 'ban') return banUser(ctx, admin, userId, body.banInfo.reason, body.banInfo.duration);
  if (body.action === 'unban') return unbanUser(ctx, admin, userId);
  const [what, action] = timeOrSlots[body.action];
  const change = what === 'time' ? changeServerDays : changeSlots;
  return change(ctx, admin, userId, { action, amount: body.amount });
}

/**
 * One action over many users (at most BULK_MAX_USERS, each named once), applied to each independently and
 * one after the other, so one refusal (an admin in a bulk ban, the caller's own account, an account of an
 * equal or higher role, an unknown id) does not stop the rest. The answer is 200 with every refusal in
 * `errors` ({userId, name, error}: the single call's own text). Who may call it at all (users:bulk_actions
 * and users:manage, which every single call it stands for needs) is decided by the route, before the body.
 */
export async function bulkAction(
  ctx: AppContext,
  admin: UserRow,
  body: BulkActionRequest,
): Promise<BulkActionResponse> {
  const errors: BulkActionResponse['errors'] = [];
  let applied = 0;
  for (const userId of body.userIds) {
    try {
      await applyOne(ctx, admin, userId, body);
      applied += 1;
    } catch (error) {
      // An unexpected failure is logged in full and answered without internals.
      if (!(error instanceof AppError)) ctx.log.error({ err: error, userId }, 'bulk action failed for one user');
      const user = await usersRepo.findById(ctx.db, userId).catch(() => undefined);
      errors.push({
        userId,
        name: user ? actorNameOf(user) : null,
        error: error instanceof AppError ? error.message : 'The change could not be applied.',
      });
    }
  }
  return { message: m.bulkDone(applied, errors.length), applied, errors };
}
