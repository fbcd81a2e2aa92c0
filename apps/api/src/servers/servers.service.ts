import { randomUUID } from 'node:crypto';
import {
  adminServerMessages,
  hostingMessages as m,
  messages,
  type PowerAction,
  type ServerDeletedBy,
} from '@canopy/contract';
import type { ServerAccess } from '../access/server-access.ts';
import { activityRepo } from '../activity/activity.repo.ts';
import { alertsRepo } from '../alerts/alerts.repo.ts';
import { deletedAlert, queueFor } from '../alerts/notify.ts';
import type { Caller } from '../auth/guard.ts';
import { backupsRepo } from '../backups/backups.repo.ts';
import { collaboratorsRepo } from '../collaborators/collaborators.repo.ts';
import { writesSettled } from '../configuration/config-files.ts';
import type { AppContext } from '../context.ts';
import { violatedUnique } from '../db/db.ts';
import { AppError, badRequest, conflict, forbidden, maintenance, notFound } from '../errors.ts';
import { allocatePort } from '../runtime/local/ports.ts';
import { RuntimeBusyError } from '../runtime/types.ts';
import { settingsRepo } from '../settings/settings.repo.ts';
import { isBanActive, serverTimeRanOut } from '../users/profile.ts';
import { type UserRow, usersRepo } from '../users/users.repo.ts';
import { measureServerData } from './server-usage.ts';
import { bannedNamesRepo, type ServerRow, serversRepo } from './servers.repo.ts';
import { assertStorageToStart } from './storage-quota.ts';

const isAdmin = (u: UserRow) => u.is_admin === 1;

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

/** Tries of a create whose game port another writer took between our read and our insert. */
const PORT_ATTEMPTS = 5;
const noPort = () => new AppError(503, 'no_port', 'No game port is free on this host. Please try again later.');

/** Creates the caller's one server from an available slot. */
export async function createServer(ctx: AppContext, caller: Caller, id: string, name: string) {
  const { user, settings, admin } = await actingUser(ctx, caller, id);
  if (settings.disableServerCreation && !admin) throw forbidden(m.creationDisabled, 'creation_disabled');
  const clashed = new Set<number>();
  for (let attempt = 1; ; attempt++) {
    let row: Omit<ServerRow, 'desired_state' | 'last_crash_at'>;
    try {
      row = await insertServer(ctx, user, name, clashed);
    } catch (error) {
      // Each unique index answers for itself: a port clash is ours to retry, never "name taken".
      const constraint = violatedUnique(error);
      if (constraint === undefined) throw error;
      if (constraint.includes('game_port')) {
        if (attempt < PORT_ATTEMPTS) continue;
        throw noPort();
      }
      if (constraint.includes('owner_id')) throw conflict(m.alreadyOwnsServer, 'already_owns_server');
      if (constraint.includes('name_key')) throw conflict(m.serverNameTaken, 'server_name_taken');
      throw error;
    }
    ctx.servers.remember({ ...row, desired_state: 'stopped', last_crash_at: null });
    await log(ctx, user, 'Server created', `${name} (game port ${row.game_port})`);
    return { message: m.created(name), server: { id: name, name, status: 'OFFLINE' as const } };
  }
}

/**
 * One transaction that re-checks every rule about the user and the name and inserts the server. The
 * user's row lock orders it against invitations of the same user (collaborators.service.ts), and
 * the port lock against other creates; `clashed` holds ports a failed attempt collided on.
 */
function insertServer(ctx: AppContext, user: UserRow, name: string, clashed: Set<number>) {
  return ctx.db.transaction(async (tx) => {
    await collaboratorsRepo.lockUser(tx, user.id);
    if (await serversRepo.findByOwner(tx, user.id)) throw conflict(m.alreadyOwnsServer, 'already_owns_server');
    if (await collaboratorsRepo.serverOf(tx, user.id)) throw forbidden(m.collaboratorCannotCreate, 'collaborator');
    if (await bannedNamesRepo.isBanned(tx, name)) throw badRequest(m.serverNameBanned, 'server_name_banned');
    if (await serversRepo.nameTaken(tx, name)) throw conflict(m.serverNameTaken, 'server_name_taken');
    // A server made after the account's time (and its grace) ran out would be deleted at the scheduler's
    // next round: refused, read under the row lock so a renewal racing it is seen.
    const fresh = await usersRepo.findById(tx, user.id);
    if (fresh && serverTimeRanOut(fresh, ctx.now())) throw forbidden(m.serverTimeOverCreate, 'server_time_expired');
    if (!(await usersRepo.takeSlot(tx, user.id))) throw forbidden(m.noSlots, 'no_slots');
    await serversRepo.lockPortAllocation(tx);
    const used = await serversRepo.usedPorts(tx);
    const port = await allocatePort(ctx.config.gamePorts, new Set([...used, ...clashed]));
    if (port === null) throw noPort();
    const row = {
      id: randomUUID(),
      owner_id: user.id,
      name,
      game_port: port,
      // Derived from the host key when needed, never stored (ADR 0011).
      control_secret: '',
      created_at: ctx.now(),
    };
    try {
      await serversRepo.insert(tx, row);
    } catch (error) {
      if (violatedUnique(error)?.includes('game_port')) clashed.add(port);
      throw error;
    }
    await usersRepo.beginPendingServerTime(tx, user.id, ctx.now());
    return row;
  });
}

/** What DELETE /users/:id/server declares: the owner only. */
export const deleteServerAccess = { need: 'owner', noServer: m.noServer, notOwner: m.onlyOwnerDelete } as const;

/** Deletes the caller's server and its data, and gives the slot back. */
export async function deleteServer(ctx: AppContext, { user, server }: ServerAccess) {
  await ctx.servers.settled(server.id);
  if (ctx.servers.runtime.isBusy(server.id)) throw conflict(m.actionInProgress, 'action_in_progress');
  // Another delete (the owner's, an admin's, the scheduler's) may have taken it meanwhile: then this one did nothing.
  const by = user.id === server.owner_id ? 'owner' : 'admin';
  if (!(await removeServer(ctx, server.id, by))) throw notFound(m.serverNotFound, 'no_server');
  // The server is gone: the answer says so even when its log entry cannot be written (a full disk).
  await log(ctx, user, 'Server deleted', server.name).catch((error) =>
    ctx.log.error({ err: error, server: server.name }, 'activity log entry of a deletion could not be written'),
  );
  return { message: m.deleted };
}

/**
 * Stops and deletes a server with its data; the owner's slot comes back and the owner's profile remembers
 * the deletion and `by` whom (the dashboard's notice). Shared with the scheduler. False when the server was
 * already gone: two deletes at once both get here, and only the one whose DELETE took the row gives the slot
 * back (PostgreSQL runs them side by side; each returned a slot before).
 */
export async function removeServer(ctx: AppContext, serverId: string, by: ServerDeletedBy): Promise<boolean> {
  const server = await serversRepo.findById(ctx.db, serverId);
  if (!server) return false;
  await ctx.servers.runtime.remove(ctx.servers.spec(server));
  const removed = await ctx.db.transaction(async (tx) => {
    const alertHook = await alertsRepo.hook(tx, server.id); // deleted with the server: read first
    if ((await serversRepo.delete(tx, server.id)).changes === 0) return false;
    await queueFor(tx, alertHook, 'deleted', deletedAlert(server.name, by), ctx.now());
    await usersRepo.returnSlot(tx, server.owner_id);
    await usersRepo.noteServerDeleted(tx, server.owner_id, { name: server.name, by }, ctx.now());
    // The account's backup outlives the server and still counts.
    await usersRepo.setStorageUsed(tx, server.owner_id, await backupsRepo.bytesOf(tx, server.owner_id));
    return true;
  });
  // The delete that took the row tells the rest.
  if (!removed) return false;
  ctx.servers.forget(server.id);
  ctx.bus.emit('status', {
    serverId: server.id,
    name: server.name,
    ownerId: server.owner_id,
    status: 'OFFLINE',
    players: 0,
    version: 'N/A',
  });
  return true;
}

/** What the power action routes declare. */
export const powerActionAccess = { need: 'server:actions', noServer: m.noServer } as const;

/** Starts, stops or restarts the caller's server; answers once the action is under way. */
export async function powerAction(ctx: AppContext, access: ServerAccess, serverId: string, action: PowerAction) {
  const { user, server, settings, isAdmin: admin } = access;
  if (server.name.toLowerCase() !== serverId.toLowerCase()) throw notFound(m.serverNotFound, 'no_server');
  if (settings.disableServerActions && !admin) throw forbidden(m.actionsDisabled, 'actions_disabled');
  // Storage and server time are the owner's, also when a collaborator presses start.
  const owner = user.id === server.owner_id ? user : await usersRepo.findById(ctx.db, server.owner_id);
  if (!owner) throw notFound(m.serverNotFound, 'no_server');
  // A banned owner's server stays stopped while the ban lasts, also for collaborators (ADR 0020).
  if (action !== 'stop' && isBanActive(owner, ctx.now()))
    throw forbidden(adminServerMessages.ownerBanned, 'owner_banned');

  await ctx.servers.settled(server.id);
  const runtime = ctx.servers.runtime;
  // A restore or another action holding the server's lock refuses this one at once. Config saves and a backup sent
  // before it but not holding the lock yet finish first (they go through the server's files, which a start or stop
  // takes away half way otherwise); those sent after it are refused by the lock it takes.
  if (runtime.isBusy(server.id)) throw conflict(m.actionInProgress, 'action_in_progress');
  await writesSettled(server.id);
  if (runtime.isBusy(server.id)) throw conflict(m.actionInProgress, 'action_in_progress');
  const status = runtime.state(server.id).status;
  if (action === 'start' && status === 'ONLINE') throw conflict(m.alreadyRunning, 'already_running');
  if (action === 'stop' && status === 'OFFLINE') throw conflict(m.notRunning, 'not_running');
  // Restart obeys the start rule: it starts the engine again, and a full server must not come back up.
  if (action !== 'stop') await assertStorageToStart(ctx, server, owner);
  if (action !== 'stop' && serverTimeRanOut(owner, ctx.now()))
    throw forbidden(m.serverTimeExpired, 'server_time_expired');

  // A stop records what the engine stores as it goes, so that the next start can count the offline server by it.
  if (action === 'stop' && status === 'ONLINE') await measureServerData(ctx, server).catch(() => {});
  const spec = ctx.servers.spec(server);
  // Recorded before acting: a database that cannot take it (a full disk) refuses the action before
  // anything happens, instead of answering an error for an action that went ahead. Only over the wish read above:
  // a request that changed it since is acting now (on this replica or another), and this one is refused as racing it.
  const wish = action === 'stop' ? 'stopped' : 'running';
  if (!(await serversRepo.setDesiredStateIf(ctx.db, server.id, server.desired_state, wish)))
    throw conflict(m.actionInProgress, 'action_in_progress');
  // A refused action gives the wish back, unless another request changed it meanwhile (that one's stands).
  const giveBack = () =>
    wish === server.desired_state
      ? Promise.resolve()
      : serversRepo.setDesiredStateIf(ctx.db, server.id, wish, server.desired_state).catch(() => {});
  // The lock is taken synchronously inside these calls; the answer does not wait for the outcome,
  // which reaches the browser as status_update messages.
  let done: Promise<void>;
  try {
    done = action === 'start' ? runtime.start(spec) : action === 'stop' ? runtime.stop(spec.id) : runtime.restart(spec);
  } catch (error) {
    // Another action took the lock since the checks; it decides, and the wish goes back to what it was.
    await giveBack();
    throw error;
  }
  // The outcome is reported to the user (status, activity log); an expected failure needs no stack here.
  done.catch((error: Error) => {
    if (!(error instanceof RuntimeBusyError))
      ctx.log.warn({ server: server.name, reason: error.message }, `${action} failed`);
  });
  // A lock shared by replicas (the kubernetes runtime) may be held by another replica's action: refused as above.
  try {
    await runtime.claimed(spec.id);
  } catch (error) {
    await giveBack();
    throw error;
  }
  // The action is under way, so the answer says so even when its log entry cannot be written.
  await log(ctx, user, `Server ${action}`, server.name).catch((error) =>
    ctx.log.error({ err: error, server: server.name }, 'activity log entry of a power action could not be written'),
  );
  return {
    message: m.actionSucceeded(action),
    server: { id: server.name, name: server.name, status: runtime.state(server.id).status },
  };
}
