import { randomUUID } from 'node:crypto';
import { hostingMessages as m, messages, type PowerAction } from '@canopy/contract';
import { accessServer } from '../access/server-access.ts';
import { activityRepo } from '../activity/activity.repo.ts';
import type { Caller } from '../auth/guard.ts';
import { collaboratorsRepo } from '../collaborators/collaborators.repo.ts';
import type { AppContext } from '../context.ts';
import { isUniqueViolation } from '../db/db.ts';
import { AppError, badRequest, conflict, forbidden, maintenance, notFound } from '../errors.ts';
import { allocatePort } from '../runtime/local/ports.ts';
import { settingsRepo } from '../settings/settings.repo.ts';
import { isBanActive } from '../users/profile.ts';
import { type UserRow, usersRepo } from '../users/users.repo.ts';
import { newControlSecret, toSpec } from './hosting.ts';
import { bannedNamesRepo, serversRepo } from './servers.repo.ts';

const isAdmin = (u: UserRow) => u.is_admin === 1;
const MB = 1024 * 1024;

/** `{id}` in /users/{id}/server/... is the caller's own id, and the platform must be open to them. */
async function actingUser(ctx: AppContext, caller: Caller, id: string) {
  if (caller.user.id !== id) throw forbidden(messages.missingPermission, 'not_your_account');
  const settings = await settingsRepo.load(ctx.db);
  const admin = isAdmin(caller.user);
  if (settings.maintenance && !admin) throw maintenance();
  if (!caller.user.grow_id) throw forbidden(messages.notRegistered, 'not_registered');
  if (isBanActive(caller.user, ctx.now())) throw forbidden(m.bannedActions, 'banned');
  return { user: caller.user, settings, admin };
}

const log = (ctx: AppContext, user: UserRow, action: string, details: string) =>
  activityRepo.add(
    ctx.db,
    { action, actorType: isAdmin(user) ? 'Admin' : 'User', actorName: user.grow_id ?? user.username, details },
    ctx.now(),
  );

/** Creates the caller's one server from an available slot. */
export async function createServer(ctx: AppContext, caller: Caller, id: string, name: string) {
  const { user, settings, admin } = await actingUser(ctx, caller, id);
  if (settings.disableServerCreation && !admin) throw forbidden(m.creationDisabled, 'creation_disabled');
  if (await serversRepo.findByOwner(ctx.db, user.id)) throw conflict(m.alreadyOwnsServer, 'already_owns_server');
  if (await collaboratorsRepo.serverOf(ctx.db, user.id)) throw forbidden(m.collaboratorCannotCreate, 'collaborator');
  if (await bannedNamesRepo.isBanned(ctx.db, name)) throw badRequest(m.serverNameBanned, 'server_name_banned');
  if (await serversRepo.nameTaken(ctx.db, name)) throw conflict(m.serverNameTaken, 'server_name_taken');
  if (Number(user.available_slot) <= 0) throw forbidden(m.noSlots, 'no_slots');
  const port = await allocatePort(ctx.config.gamePorts, await serversRepo.usedPorts(ctx.db));
  if (port === null) throw new AppError(503, 'no_port', 'No game port is free on this host. Please try again later.');

  const row = {
    id: randomUUID(),
    owner_id: user.id,
    name,
    game_port: port,
    control_secret: newControlSecret(),
    created_at: ctx.now(),
  };
  try {
    await ctx.db.transaction(async (tx) => {
      if (!(await usersRepo.takeSlot(tx, user.id))) throw forbidden(m.noSlots, 'no_slots');
      await serversRepo.insert(tx, row);
      await usersRepo.beginPendingServerTime(tx, user.id, ctx.now());
    });
  } catch (error) {
    // Two requests racing: the unique indexes on owner and name decide.
    if (isUniqueViolation(error)) {
      if (await serversRepo.findByOwner(ctx.db, user.id)) throw conflict(m.alreadyOwnsServer, 'already_owns_server');
      throw conflict(m.serverNameTaken, 'server_name_taken');
    }
    throw error;
  }
  ctx.servers.remember({ ...row, desired_state: 'stopped', last_crash_at: null });
  await log(ctx, user, 'Server created', `${name} (game port ${port})`);
  return { message: m.created(name), server: { id: name, name, status: 'OFFLINE' as const } };
}

/** Deletes the caller's server and its data, and gives the slot back. */
export async function deleteServer(ctx: AppContext, caller: Caller, id: string) {
  const { user, server } = await accessServer(ctx, caller, id, 'owner', {
    noServer: m.noServer,
    notOwner: m.onlyOwnerDelete,
  });
  if (ctx.servers.runtime.isBusy(server.id)) throw conflict(m.actionInProgress, 'action_in_progress');
  await removeServer(ctx, server.id);
  await log(ctx, user, 'Server deleted', server.name);
  return { message: m.deleted };
}

/** Stops and deletes a server with its data; the owner's slot comes back. Shared with the scheduler. */
export async function removeServer(ctx: AppContext, serverId: string) {
  const server = await serversRepo.findById(ctx.db, serverId);
  if (!server) return;
  await ctx.servers.runtime.remove(toSpec(server));
  await ctx.db.transaction(async (tx) => {
    await serversRepo.delete(tx, server.id);
    await usersRepo.returnSlot(tx, server.owner_id);
    await usersRepo.setStorageUsed(tx, server.owner_id, 0);
  });
  ctx.servers.forget(server.id);
  ctx.bus.emit('status', {
    serverId: server.id,
    name: server.name,
    ownerId: server.owner_id,
    status: 'OFFLINE',
    players: 0,
    version: 'N/A',
  });
}

/** Starts, stops or restarts the caller's server; answers once the action is under way. */
export async function powerAction(ctx: AppContext, caller: Caller, id: string, serverId: string, action: PowerAction) {
  const {
    user,
    server,
    settings,
    isAdmin: admin,
  } = await accessServer(ctx, caller, id, 'server:actions', {
    noServer: m.noServer,
  });
  if (server.name.toLowerCase() !== serverId.toLowerCase()) throw notFound(m.serverNotFound, 'no_server');
  if (settings.disableServerActions && !admin) throw forbidden(m.actionsDisabled, 'actions_disabled');
  // Storage and server time are the owner's, also when a collaborator presses start.
  const owner = user.id === server.owner_id ? user : await usersRepo.findById(ctx.db, server.owner_id);
  if (!owner) throw notFound(m.serverNotFound, 'no_server');

  const runtime = ctx.servers.runtime;
  const status = runtime.state(server.id).status;
  if (runtime.isBusy(server.id)) throw conflict(m.actionInProgress, 'action_in_progress');
  // The spec blocks only start on full storage; restart stays possible (configuration saves restart).
  if (action === 'start' && Number(owner.storage_used_bytes) / MB >= Number(owner.storage_limit_mb))
    throw conflict(m.storageFull, 'storage_full');
  if (action !== 'stop') {
    if (
      owner.server_permanent !== 1 &&
      owner.server_expires_at !== null &&
      Number(owner.server_expires_at) <= ctx.now()
    )
      throw forbidden(m.serverTimeExpired, 'server_time_expired');
  }
  if (action === 'start' && status === 'ONLINE') throw conflict(m.alreadyRunning, 'already_running');
  if (action === 'stop' && status === 'OFFLINE') throw conflict(m.notRunning, 'not_running');

  const spec = toSpec(server);
  // The lock is taken synchronously inside these calls; the answer does not wait for the outcome,
  // which reaches the browser as status_update messages.
  const done =
    action === 'start' ? runtime.start(spec) : action === 'stop' ? runtime.stop(spec.id) : runtime.restart(spec);
  done.catch((error) => ctx.log.warn({ err: error, server: server.name }, `${action} failed`));
  await serversRepo.setDesiredState(ctx.db, server.id, action === 'stop' ? 'stopped' : 'running');
  await log(ctx, user, `Server ${action}`, server.name);
  return {
    message: m.actionSucceeded(action),
    server: { id: server.name, name: server.name, status: runtime.state(server.id).status },
  };
}
