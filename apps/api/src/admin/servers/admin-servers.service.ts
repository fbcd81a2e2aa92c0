import {
  type AdminServerRow,
  type AdminServersPage,
  adminServerMessages,
  hostingMessages,
  type PowerAction,
} from '@canopy/contract';
import type { ServerAccess } from '../../access/server-access.ts';
import type { Caller } from '../../auth/guard.ts';
import { collaboratorsRepo } from '../../collaborators/collaborators.repo.ts';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { deleteServer, powerAction } from '../../servers/servers.service.ts';
import { settingsRepo } from '../../settings/settings.repo.ts';
import { pageOf, pageWindow } from '../paging.ts';
import { adminServersRepo } from './admin-servers.repo.ts';

/** One page of every hosted server, searched by name or owner GrowID, with live status and players. */
export async function listServers(
  ctx: AppContext,
  page: number,
  search: string | undefined,
): Promise<AdminServersPage> {
  const { limit, offset } = pageWindow(page);
  const { rows, total } = await adminServersRepo.page(ctx.db, search, limit, offset);
  const items = rows.map((r): AdminServerRow => {
    const live = ctx.servers.runtime.state(r.id);
    return {
      name: r.name,
      ownerId: r.owner_id,
      ownerGrowId: r.grow_id,
      status: live.status,
      players: live.players,
      createdAt: new Date(Number(r.created_at)).toISOString(),
    };
  });
  return pageOf(items, total, page);
}

/**
 * The admin acting on someone's server as its owner would: the same ServerAccess, so the same supervisor,
 * power lock, storage and server-time rules and activity entry (actorType Admin, from the caller's row).
 * Admins bypass the feature switches (disableServerActions) as everywhere else.
 */
async function adminAccess(ctx: AppContext, caller: Caller, serverName: string): Promise<ServerAccess> {
  const server = await adminServersRepo.findByName(ctx.db, serverName);
  if (!server) throw notFound(hostingMessages.serverNotFound, 'no_server');
  const settings = await settingsRepo.load(ctx.db);
  return { user: caller.user, server, isOwner: caller.user.id === server.owner_id, isAdmin: true, settings };
}

/**
 * Starts, stops or restarts any server. powerAction refuses to bring a banned owner's server up, for an
 * admin too (ADR 0020); stopping it stays allowed.
 */
export async function adminPowerAction(ctx: AppContext, caller: Caller, serverName: string, action: PowerAction) {
  const access = await adminAccess(ctx, caller, serverName);
  const { message } = await powerAction(ctx, access, access.server.name, action);
  return { message };
}

/**
 * Deletes any server as its owner's delete does (engine stopped, data removed, slot given back), then tells
 * the owner's and collaborators' open panels, as the scheduler does when a grace period ends.
 */
export async function adminDeleteServer(ctx: AppContext, caller: Caller, serverName: string) {
  const access = await adminAccess(ctx, caller, serverName);
  const { server } = access;
  // Read before the delete, which takes the collaborators with it.
  const audience = [server.owner_id, ...(await collaboratorsRepo.audience(ctx.db, server.id))];
  await deleteServer(ctx, access);
  ctx.bus.emit('notice', { name: server.name, kind: 'deleted', audience });
  return { message: adminServerMessages.deleted(server.name) };
}
