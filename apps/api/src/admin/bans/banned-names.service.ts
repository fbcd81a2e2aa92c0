import { type BannedServerName, adminBanMessages as m } from '@canopy/contract';
import { activityRepo } from '../../activity/activity.repo.ts';
import type { AppContext } from '../../context.ts';
import { conflict, notFound } from '../../errors.ts';
import type { UserRow } from '../../users/users.repo.ts';
import { pageOf } from '../paging.ts';
import { bannedNamesAdminRepo } from './bans.repo.ts';
import { actorNameOf } from './bans.service.ts';

/** One page of banned server names, newest first. */
export async function listBannedNames(ctx: AppContext, page: number, search?: string) {
  const { rows, total } = await bannedNamesAdminRepo.page(ctx.db, page, search);
  const items: BannedServerName[] = rows.map((r) => ({
    serverName: r.name,
    reason: r.reason,
    bannedBy: r.banned_by ?? 'System',
    bannedAt: new Date(Number(r.created_at)).toISOString(),
  }));
  return pageOf(items, total, page);
}

/**
 * Bans a server name: creating a server with it (any letter case) is refused from now on. A server that
 * already has the name keeps it; deleting it with its name banned is the Servers tab's delete.
 */
export async function banServerName(ctx: AppContext, admin: UserRow, serverName: string, reason: string) {
  const actor = actorNameOf(admin);
  const added = await bannedNamesAdminRepo.add(ctx.db, serverName, reason, actor, ctx.now());
  if (!added) throw conflict(m.serverNameAlreadyBanned, 'server_name_already_banned');
  await activityRepo.add(
    ctx.db,
    { action: 'Server name banned', actorType: 'Admin', actorName: actor, details: `${serverName}: ${reason}` },
    ctx.now(),
  );
  return { message: m.serverNameBanned(serverName) };
}

/** Lifts the ban on a server name (404 when it is not banned). */
export async function unbanServerName(ctx: AppContext, admin: UserRow, serverName: string) {
  const actor = actorNameOf(admin);
  if (!(await bannedNamesAdminRepo.remove(ctx.db, serverName)))
    throw notFound(m.serverNameNotBanned, 'server_name_not_banned');
  await activityRepo.add(
    ctx.db,
    { action: 'Server name unbanned', actorType: 'Admin', actorName: actor, details: serverName },
    ctx.now(),
  );
  return { message: m.serverNameUnbanned(serverName) };
}
