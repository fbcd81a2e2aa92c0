import { type ConfigApplied, configurationMessages } from '@canopy/contract';
import type { ServerAccess } from '../access/server-access.ts';
import { logServerAction } from '../activity/server-activity.ts';
import type { AppContext } from '../context.ts';
import { assertStorageToStart } from '../servers/storage-quota.ts';

/**
 * Applies a saved change that the engine reads only at start (newbie kit, custom items, a texture item): the
 * restart belongs to the save, so it runs under the saver's config:manage, not server:actions (a collaborator
 * allowed to configure was refused the page's follow-up restart). A running server restarts now; a stopped one
 * stays stopped and reads the change when it next starts (a save never starts a server its owner stopped).
 * A server that cannot restart now (another power action holds it, its storage is full) keeps running on the
 * old configuration until its next start, and the answer says so. The file is saved either way. A save that
 * changed nothing (`changed` false: the content's version is the one stored) restarts nothing: otherwise saving
 * the same kit again would be a restart button for a collaborator who may configure but not restart.
 */
export async function applyByRestart(
  ctx: AppContext,
  access: ServerAccess,
  what: string,
  changed: boolean,
): Promise<ConfigApplied> {
  if (!changed) return 'unchanged';
  const { server } = access;
  await ctx.servers.settled(server.id);
  const runtime = ctx.servers.runtime;
  if (runtime.state(server.id).status !== 'ONLINE' || runtime.isBusy(server.id)) return 'next_start';
  try {
    // A restart obeys the start rule, as the dashboard's does.
    await assertStorageToStart(ctx, server, access.isOwner ? access.user : undefined);
    // Takes the power lock synchronously; the outcome reaches the browser as status updates.
    // The console says why before its '> stop' (the players and the owner see who restarted it).
    const by = access.user.grow_id ?? access.user.username;
    runtime
      .restart(ctx.servers.spec(server), configurationMessages.restartToApply(what, by))
      .catch((error: Error) => ctx.log.warn({ server: server.name, reason: error.message }, 'restart failed'));
  } catch (error) {
    ctx.log.info({ server: server.name, reason: (error as Error).message }, 'config saved; restart refused');
    return 'next_start';
  }
  await logServerAction(ctx, access, 'Server restart', `to apply: ${what}`);
  return 'restarting';
}
