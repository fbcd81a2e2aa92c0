import { hasAdminPermission, messages, type ProfileResponse, type RegisterRequest } from '@canopy/contract';
import type { Caller } from '../auth/guard.ts';
import { readAutofarmDelay } from '../configuration/general.service.ts';
import type { AppContext } from '../context.ts';
import { isUniqueViolation } from '../db/db.ts';
import { conflict, forbidden, maintenance, notFound } from '../errors.ts';
import { redemptionHistory } from '../redeem/redeem.service.ts';
import { settingsRepo } from '../settings/settings.repo.ts';
import { profileRepo } from './profile.repo.ts';
import { adminCaller, type ProfileServer, toProfile } from './profile.ts';
import { usersRepo } from './users.repo.ts';

const isAdmin = (caller: Caller) => caller.user.is_admin === 1;

/**
 * The profile call: own profile only (another account's needs the admin permission users:view; a collaborator
 * reads the owner's time and storage in their own profile), 503 in maintenance, 404 before registration.
 */
export async function getProfile(ctx: AppContext, caller: Caller, id: string): Promise<ProfileResponse> {
  if (caller.user.id !== id && !hasAdminPermission(adminCaller(caller.user), 'users:view'))
    throw forbidden(messages.forbiddenProfile, 'not_your_account');
  const settings = await settingsRepo.load(ctx.db);
  if (settings.maintenance && !isAdmin(caller)) throw maintenance();
  const user = id === caller.user.id ? caller.user : await usersRepo.findById(ctx.db, id);
  if (!user?.grow_id) throw notFound(messages.notRegistered, 'not_registered');
  const [server, redeemedCodes] = await Promise.all([profileServer(ctx, user.id), redemptionHistory(ctx, user.id)]);
  return { profile: { ...toProfile(user, ctx.now(), server, ctx.config.paidStorageMB), redeemedCodes }, settings };
}

/** The user's own server, else the one they collaborate on (with its owner, whose time and storage it runs on). */
async function profileServer(ctx: AppContext, userId: string): Promise<ProfileServer | null> {
  const row = await profileRepo.serverOf(ctx.db, userId);
  if (!row) return null;
  const crashLoop = ctx.servers.isCrashLooping(row.id);
  const autofarmDelay = await readAutofarmDelay(ctx, row.id);
  if (row.permissions === null) return { name: row.name, crashLoop, autofarmDelay };
  return {
    name: row.name,
    collaboratorPermissions: JSON.parse(row.permissions),
    owner: (await usersRepo.findById(ctx.db, row.owner_id)) ?? undefined,
    crashLoop,
    autofarmDelay,
  };
}

/** Claims a GrowID for the caller, once; names are unique whatever their case. */
export async function registerGrowId(ctx: AppContext, caller: Caller, req: RegisterRequest) {
  if (req.discordId !== caller.user.id) throw forbidden(messages.registerForOther, 'register_for_other');
  if (!isAdmin(caller) && (await settingsRepo.load(ctx.db)).maintenance) throw maintenance();
  if (caller.user.grow_id) throw conflict(messages.alreadyRegistered, 'already_registered');
  if (await usersRepo.growIdTaken(ctx.db, req.growId)) throw conflict(messages.growIdTaken, 'growid_taken');
  try {
    const set = await usersRepo.setGrowId(ctx.db, caller.user.id, req.growId, ctx.now());
    if (!set) throw conflict(messages.alreadyRegistered, 'already_registered');
  } catch (error) {
    // Two people racing for one name: the unique index decides.
    if (isUniqueViolation(error)) throw conflict(messages.growIdTaken, 'growid_taken');
    throw error;
  }
  return { message: 'Registration successful.', growId: req.growId };
}
