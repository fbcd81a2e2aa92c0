import {
  type Collaborator,
  type CollaboratorValidation,
  discordIdSchema,
  serverPageMessages as p,
} from '@canopy/contract';
import type { ServerAccess } from '../access/server-access.ts';
import { activityRepo } from '../activity/activity.repo.ts';
import type { AppContext } from '../context.ts';
import { type Db, violatedUnique } from '../db/db.ts';
import { badRequest, notFound } from '../errors.ts';
import { serversRepo } from '../servers/servers.repo.ts';
import { isBanActive } from '../users/profile.ts';
import { usersRepo } from '../users/users.repo.ts';
import { collaboratorsRepo } from './collaborators.repo.ts';

/** What every collaborator route declares: the owner only, with the collaborator pages' texts. */
export const collaboratorsAccess = {
  need: 'owner',
  noServer: p.needServerForCollaborators,
  notOwner: p.onlyOwnerCollaborators,
} as const;

const log = (ctx: AppContext, { user }: ServerAccess, action: string, details: string) =>
  activityRepo.add(ctx.db, { action, actorType: 'User', actorName: user.grow_id ?? user.username, details }, ctx.now());

/** The owner's collaborators. */
export async function listCollaborators(ctx: AppContext, { server }: ServerAccess): Promise<Collaborator[]> {
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
  access: ServerAccess,
  discordId: string,
): Promise<CollaboratorValidation> {
  return eligibility(ctx, ctx.db, access, discordId);
}

/** The validation answer for one Discord id, read through `db` (a transaction when adding). */
async function eligibility(
  ctx: AppContext,
  db: Db,
  { user: owner, server }: ServerAccess,
  discordId: string,
): Promise<CollaboratorValidation> {
  const parsed = discordIdSchema.safeParse(discordId);
  if (!parsed.success) return { status: 'invalid_id', message: parsed.error.issues[0]?.message ?? '', user: null };
  const user = await usersRepo.findById(db, discordId);
  if (!user?.grow_id) return { status: 'not_found', message: notFoundText, user: null };
  const who = { DiscordUsername: user.username, GrowID: user.grow_id };
  const conflict = (message: string) => ({ status: 'conflict' as const, message, user: who });
  if (user.id === owner.id) return conflict('You cannot add yourself.');
  if (await collaboratorsRepo.find(db, server.id, user.id)) return conflict(alreadyHereText);
  if (await serversRepo.findByOwner(db, user.id)) return conflict(ownsServerText);
  if (await collaboratorsRepo.serverOf(db, user.id)) return conflict(elsewhereText);
  if (isBanActive(user, ctx.now())) return conflict('This user is banned.');
  return { status: 'valid', message: `${user.username} (${user.grow_id}) can be added.`, user: who };
}

const notFoundText = 'No registered Canopy user has this Discord ID.';
const alreadyHereText = 'This user is already a collaborator.';
const ownsServerText = 'This user owns a server of their own.';
const elsewhereText = 'This user already collaborates on a server.';
const refused = (reason: string) => badRequest(`${p.invalidCollaborator} ${reason}`, 'invalid_collaborator');

/**
 * Invites a validated user with the given permissions. The check and the insert are one transaction
 * holding the invitee's row lock, the lock their own server creation takes too, so neither two
 * owners inviting them at once nor an invite racing their create can make them owner and
 * collaborator, or collaborator twice; UNIQUE(user_id) on collaborators backs this up.
 */
export async function addCollaborator(ctx: AppContext, access: ServerAccess, discordId: string, permissions: string[]) {
  const { server } = access;
  try {
    await ctx.db.transaction(async (tx) => {
      if (discordIdSchema.safeParse(discordId).success) await collaboratorsRepo.lockUser(tx, discordId);
      const check = await eligibility(ctx, tx, access, discordId);
      if (check.status !== 'valid') throw refused(check.message);
      await collaboratorsRepo.add(tx, server.id, discordId, permissions, ctx.now());
    });
  } catch (error) {
    const constraint = violatedUnique(error);
    if (constraint === undefined) throw error;
    // Only reachable if a writer skipped the lock; the message still says which rule held.
    throw refused(constraint.includes('server_id') || constraint.includes('pkey') ? alreadyHereText : elsewhereText);
  }
  await log(ctx, access, 'Collaborator added', `${server.name}: ${discordId} (${permissions.join(', ')})`);
  return { message: p.collaboratorAdded };
}

/** Replaces a collaborator's permissions. */
export async function updateCollaborator(
  ctx: AppContext,
  access: ServerAccess,
  discordId: string,
  permissions: string[],
) {
  const { server } = access;
  const r = await collaboratorsRepo.update(ctx.db, server.id, discordId, permissions);
  if (r.changes === 0) throw notFound(p.collaboratorNotFound, 'not_collaborator');
  await log(ctx, access, 'Collaborator updated', `${server.name}: ${discordId} (${permissions.join(', ')})`);
  return { message: p.collaboratorUpdated };
}

/** Removes a collaborator. */
export async function removeCollaborator(ctx: AppContext, access: ServerAccess, discordId: string) {
  const { server } = access;
  const r = await collaboratorsRepo.remove(ctx.db, server.id, discordId);
  if (r.changes === 0) throw notFound(p.collaboratorNotFound, 'not_collaborator');
  await log(ctx, access, 'Collaborator removed', `${server.name}: ${discordId}`);
  return { message: p.collaboratorRemoved };
}
