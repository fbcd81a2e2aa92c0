import {
  type CollaboratorPermission,
  hostingMessages,
  messages,
  serverPageMessages as p,
  type Settings,
} from '@canopy/contract';
import type { Caller } from '../auth/guard.ts';
import { collaboratorsRepo } from '../collaborators/collaborators.repo.ts';
import type { AppContext } from '../context.ts';
import { forbidden, maintenance, notFound } from '../errors.ts';
import { type ServerRow, serversRepo } from '../servers/servers.repo.ts';
import { settingsRepo } from '../settings/settings.repo.ts';
import { isBanActive } from '../users/profile.ts';
import { type UserRow, usersRepo } from '../users/users.repo.ts';

/** What the caller may do on the server a server-scoped route acts on. */
export interface ServerAccess {
  user: UserRow;
  server: ServerRow;
  isOwner: boolean;
  isAdmin: boolean;
  settings: Settings;
}

/** What a route needs: a collaborator permission, or the owner only. */
export type ServerRequirement = CollaboratorPermission | 'owner';

const refusals: Record<ServerRequirement, { banned: string; denied: string }> = {
  'server:actions': { banned: hostingMessages.bannedActions, denied: hostingMessages.noActionPermission },
  'worlds:manage': { banned: p.bannedWorlds, denied: p.noPermissionWorlds },
  'players:manage': { banned: p.bannedPlayers, denied: p.noPermissionPlayers },
  'console:use': { banned: p.bannedConsole, denied: p.noPermissionConsole },
  'backups:manage': { banned: 'Your account is banned. You cannot manage backups.', denied: p.noPermission },
  'config:manage': { banned: 'Your account is banned. You cannot change the configuration.', denied: p.noPermission },
  owner: { banned: hostingMessages.bannedActions, denied: p.onlyOwnerCollaborators },
};

/** What the caller asks to do besides the permission: `write` for anything that changes the server. */
export interface AccessOptions {
  noServer?: string;
  notOwner?: string;
  /** A change (power action, config, backup, world or player write, console command), not a read. */
  write?: boolean;
}

/**
 * The one place that decides access to a hosted server. `{id}` must be the caller's own id; the server is
 * the one they own, else the one they collaborate on. Owners hold every permission, collaborators only
 * the granted ones, banned users none; admins bypass feature switches, not permissions. A ban of the owner
 * covers their server: nobody changes it while the ban lasts (a collaborator still reads it).
 */
export async function accessServer(
  ctx: AppContext,
  caller: Caller,
  id: string,
  need: ServerRequirement,
  texts: AccessOptions = {},
): Promise<ServerAccess> {
  const user = caller.user;
  if (user.id !== id) throw forbidden(messages.missingPermission, 'not_your_account');
  if (!user.grow_id) throw forbidden(messages.notRegistered, 'not_registered');
  const settings = await settingsRepo.load(ctx.db);
  const isAdmin = user.is_admin === 1;
  if (settings.maintenance && !isAdmin) throw maintenance();

  const owned = await serversRepo.findByOwner(ctx.db, user.id);
  const shared = owned ? undefined : await collaboratorsRepo.serverOf(ctx.db, user.id);
  const server = owned ?? shared;
  if (!server) throw notFound(texts.noServer ?? p.noServer, 'no_server');
  if (isBanActive(user, ctx.now())) throw forbidden(refusals[need].banned, 'banned');
  if (!owned) {
    const granted: string[] = JSON.parse(shared?.permissions ?? '[]');
    if (need === 'owner') throw forbidden(texts.notOwner ?? refusals.owner.denied, 'owner_only');
    if (!granted.includes(need)) throw forbidden(refusals[need].denied, 'missing_permission');
    // The owner's own requests stop at their ban above; their collaborators' writes stop here (ADR 0030).
    if (texts.write && server) {
      const owner = await usersRepo.findById(ctx.db, server.owner_id);
      if (!owner || isBanActive(owner, ctx.now())) throw forbidden(p.ownerBanned, 'owner_banned');
    }
  }
  return { user, server, isOwner: !!owned, isAdmin, settings };
}
