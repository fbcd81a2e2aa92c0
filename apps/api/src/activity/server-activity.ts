import type { ServerAccess } from '../access/server-access.ts';
import type { AppContext } from '../context.ts';
import { serversRepo } from '../servers/servers.repo.ts';
import { activityRepo } from './activity.repo.ts';

/** Longest `details` an entry keeps: what a user sends (a GrowID, an item name) is bounded before it is stored. */
export const ACTIVITY_DETAILS_MAX = 200;
/** What a stored entry costs besides its texts: its id, timestamp, actor type and the row's own overhead. */
const ENTRY_OVERHEAD_BYTES = 96;

/** The bytes an entry stores in the platform database, as counted against the server's owner. */
export const entryBytes = (action: string, actorName: string, details: string) =>
  ENTRY_OVERHEAD_BYTES + Buffer.byteLength(action) + Buffer.byteLength(actorName) + Buffer.byteLength(details);

/**
 * Records in the activity log what a user did on a server, once it is done. The entry lives in the platform
 * database, so its bytes are added to the server's activity_bytes in the same transaction: they count toward
 * the owner's storage limit (storage-quota.ts), and a tenant cannot grow the platform database past it.
 * A failing entry is logged and never turns a saved change into an error answer: the caller would retry a
 * change that already happened.
 */
export async function logServerAction(
  ctx: AppContext,
  { user, server }: ServerAccess,
  action: string,
  details: string,
): Promise<void> {
  const text = `${server.name}: ${details}`;
  const entry = {
    action,
    actorType: user.is_admin === 1 ? ('Admin' as const) : ('User' as const),
    actorName: user.grow_id ?? user.username,
    details: text.length > ACTIVITY_DETAILS_MAX ? `${text.slice(0, ACTIVITY_DETAILS_MAX - 1)}…` : text,
  };
  try {
    await ctx.db.transaction(async (tx) => {
      await activityRepo.add(tx, entry, ctx.now());
      await serversRepo.addActivityBytes(tx, server.id, entryBytes(entry.action, entry.actorName, entry.details));
    });
  } catch (error) {
    ctx.log.error({ err: error }, 'activity log entry for a saved change could not be written');
  }
}
