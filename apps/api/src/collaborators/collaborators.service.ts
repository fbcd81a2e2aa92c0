import {
  type Collaborator,
  type CollaboratorValidation,
  discordIdSchema,
  serverPageMessages as p,
} from '@canopy/contract';
import { accessServer } from '../access/server-access.ts';
import { activityRepo } from '../activity/activity.repo.ts';
import type { Caller } from '../auth/guard.ts';
import type { AppContext } from '../context.ts';
import { isUniqueViolation } from '../db/db.ts';
import { badRequest, notFound } from '../errors.ts';
import { serversRepo } from '../servers/servers.repo.ts';
import { isBanActive } from '../users/profile.ts';
import { usersRepo } from '../users/users.repo.ts';
import { collaboratorsRepo } from './collaborators.repo.ts';

const owner = (ctx: AppContext, caller: Caller, id: string) =>
  accessServer(ctx, caller, id, 'owner', {
    noServer: p.needServerForCollaborators,
    notOwner: p.onlyOwnerCollaborators,
  });

const log = (ctx: AppContext, caller: Caller, action: string, details: string) =>
  activityRepo.add(
    ctx.db,
    { action, actorType: 'User', actorName: caller.user.grow_id ?? caller.user.username, details },
    ctx.now(),
  );

/** The owner's collaborators. */
export async function listCollaborators(ctx: AppContext, caller: Caller, id: string): Promise<Collaborator[]> {
  const { server } = await owner(ctx, caller, id);
  return (await collaboratorsRepo.list(ctx.db, server.id)).map((c) => ({
    DiscordID: c.user_id,
    DiscordUsername: c.username,
    GrowID: c.grow_id,
    Permissions: JSON.parse(c.permissions),
    addedAt: new Date(Number(c.created_at)).toISOString(),
  }));
}

/** Whether a Discord id can be invited: a registered, unbanned user with no server context of their own. */
export async function validateCollaborator(
  ctx: AppContext,
  caller: Caller,
  id: string,
  discordId: string,
): Promise<CollaboratorValidation> {
  const { server } = await owner(ctx, caller, id);
  const parsed = discordIdSchema.safeParse(discordId);
  if (!parsed.success) return { status: 'invalid_id', message: parsed.error.issues[0]?.message ?? '', user: null };
  const user = await usersRepo.findById(ctx.db, discordId);
  if (!user?.grow_id)
    return { status: 'not_found', message: 'No registered Canopy user has this Discord ID.', user: null };
  const who = { DiscordUsername: user.username, GrowID: user.grow_id };
  const conflict = (message: string) => ({ status: 'conflict' as const, message, user: who });
  if (user.id === caller.user.id) return conflict('You cannot add yourself.');
  if (await collaboratorsRepo.find(ctx.db, server.id, user.id)) return conflict('This user is already a collaborator.');
  if (await serversRepo.findByOwner(ctx.db, user.id)) return conflict('This user owns a server of their own.');
  if (await collaboratorsRepo.serverOf(ctx.db, user.id)) return conflict('This user already collaborates on a server.');
  if (isBanActive(user, ctx.now())) return conflict('This user is banned.');
  return { status: 'valid', message: `${user.username} (${user.grow_id}) can be added.`, user: who };
}

/** Invites a validated user with the given permissions. */
export async function addCollaborator(
  ctx: AppContext,
  caller: Caller,
  id: string,
  discordId: string,
  permissions: string[],
) {
  const { server } = await owner(ctx, caller, id);
  const check = await validateCollaborator(ctx, caller, id, discordId);
  if (check.status !== 'valid') throw badRequest(`${p.invalidCollaborator} ${check.message}`, 'invalid_collaborator');
  try {
    await collaboratorsRepo.add(ctx.db, server.id, discordId, permissions, ctx.now());
  } catch (error) {
    if (isUniqueViolation(error)) throw badRequest(p.invalidCollaborator, 'invalid_collaborator');
    throw error;
  }
  await log(ctx, caller, 'Collaborator added', `${server.name}: ${discordId} (${permissions.join(', ')})`);
  return { message: p.collaboratorAdded };
}

/** Replaces a collaborator's permissions. */
export async function updateCollaborator(
  ctx: AppContext,
  caller: Caller,
  id: string,
  discordId: string,
  permissions: string[],
) {
  const { server } = await owner(ctx, caller, id);
  const r = await collaboratorsRepo.update(ctx.db, server.id, discordId, permissions);
  if (r.changes === 0) throw notFound(p.collaboratorNotFound, 'not_collaborator');
  await log(ctx, caller, 'Collaborator updated', `${server.name}: ${discordId} (${permissions.join(', ')})`);
  return { message: p.collaboratorUpdated };
}

/** Removes a collaborator. */
export async function removeCollaborator(ctx: AppContext, caller: Caller, id: string, discordId: string) {
  const { server } = await owner(ctx, caller, id);
  const r = await collaboratorsRepo.remove(ctx.db, server.id, discordId);
  if (r.changes === 0) throw notFound(p.collaboratorNotFound, 'not_collaborator');
  await log(ctx, caller, 'Collaborator removed', `${server.name}: ${discordId}`);
  return { message: p.collaboratorRemoved };
}
