import type { ServerAccess } from '../access/server-access.ts';
import type { AppContext } from '../context.ts';
import { activityRepo } from './activity.repo.ts';

/**
 * Records in the activity log what a user did on a server, once it is done. A failing entry is logged and
 * never turns a saved change into an error answer: the caller would retry a change that already happened.
 */
export async function logServerAction(
  ctx: AppContext,
  { user, server }: ServerAccess,
  action: string,
  details: string,
): Promise<void> {
  try {
    await activityRepo.add(
      ctx.db,
      {
        action,
        actorType: user.is_admin === 1 ? 'Admin' : 'User',
        actorName: user.grow_id ?? user.username,
        details: `${server.name}: ${details}`,
      },
      ctx.now(),
    );
  } catch (error) {
    ctx.log.error({ err: error }, 'activity log entry for a saved change could not be written');
  }
}
