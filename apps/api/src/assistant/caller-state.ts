import {
  type CollaboratorPermission,
  NO_SERVER,
  type Profile,
  type ServerStatus,
  type Settings,
} from '@canopy/contract';
import type { Caller } from '../auth/guard.ts';
import type { AppContext } from '../context.ts';
import { getProfile } from '../users/users.service.ts';

/** Where the account's server time stands, as the dashboard's countdown shows it. */
export type ServerTimePhase = 'permanent' | 'pending' | 'active' | 'grace' | 'expired';

/**
 * Everything SkyHelper may know about the person asking: their own account and the one server they own
 * or collaborate on. Built from the same profile and status feed the dashboard shows, and nothing else,
 * so no other user's data can reach a prompt or an answer.
 */
export interface CallerState {
  now: number;
  username: string;
  growId: string;
  accountType: 'Free' | 'Paid';
  isAdmin: boolean;
  credit: number;
  slots: number;
  ban: { reason: string; bannedBy: string; expires: string | null } | null;
  server: {
    name: string;
    role: 'owner' | 'collaborator';
    /** A collaborator's granted permissions (an owner holds them all). */
    permissions: string[];
    status: ServerStatus;
    players: number;
    version: string;
    crashLoop: boolean;
  } | null;
  time: { phase: ServerTimePhase; expiresAt: number | null; graceEndsAt: number | null; pendingMs: number };
  storage: { usedMB: number; limitMB: number; full: boolean };
  settings: Settings;
}

/** Reads the caller's state: their profile (as GET /users/{id}/profile answers it) and their server's live status. */
export async function loadCallerState(ctx: AppContext, caller: Caller): Promise<CallerState> {
  const { profile, settings } = await getProfile(ctx, caller, caller.user.id);
  const name = profile.serverOwned === NO_SERVER ? null : profile.serverOwned;
  // The public feed the dashboard reads; a server missing from it is OFFLINE (spec section 4).
  const live = name ? ctx.servers.feed().find((s) => s.name === name) : undefined;
  return stateFromProfile(profile, settings, live ?? null, ctx.now());
}

/** The pure part of loadCallerState (exported for tests). */
export function stateFromProfile(
  profile: Profile,
  settings: Settings,
  live: { status: ServerStatus; players: number; version: string } | null,
  now: number,
): CallerState {
  const name = profile.serverOwned === NO_SERVER ? null : profile.serverOwned;
  return {
    now,
    username: profile.username,
    growId: profile.growId ?? '',
    accountType: profile.accountType,
    isAdmin: profile.isAdmin,
    credit: profile.credit,
    slots: profile.availableSlot,
    ban: profile.banInfo
      ? { reason: profile.banInfo.reason, bannedBy: profile.banInfo.bannedBy, expires: profile.banInfo.expires }
      : null,
    server: name
      ? {
          name,
          role: profile.isCollaborator ? 'collaborator' : 'owner',
          permissions: profile.collaboratorPermissions,
          status: live?.status ?? 'OFFLINE',
          players: live?.players ?? 0,
          version: live?.version ?? 'N/A',
          crashLoop: profile.serverCrashLoop,
        }
      : null,
    time: timeOf(profile, now),
    storage: {
      usedMB: profile.storageUsedMB,
      limitMB: profile.storageLimitMB,
      full: profile.storageUsedMB >= profile.storageLimitMB,
    },
    settings,
  };
}

function timeOf(profile: Profile, now: number): CallerState['time'] {
  const t = profile.serverTime;
  const expiresAt = t.expiresAt ? Date.parse(t.expiresAt) : null;
  const graceEndsAt = t.graceEndsAt ? Date.parse(t.graceEndsAt) : null;
  const phase: ServerTimePhase = t.permanent
    ? 'permanent'
    : expiresAt === null
      ? 'pending'
      : now < expiresAt
        ? 'active'
        : graceEndsAt !== null && now < graceEndsAt
          ? 'grace'
          : 'expired';
  return { phase, expiresAt, graceEndsAt, pendingMs: t.pendingMs };
}

/** True when the caller may press start, stop and restart on their server. */
export const hasServerActions = (s: CallerState) =>
  s.server !== null &&
  (s.server.role === 'owner' || s.server.permissions.includes('server:actions' satisfies CollaboratorPermission));

/**
 * Why Start is disabled for the caller right now, in the words the panel uses (empty: nothing blocks it).
 * Mirrors what the api checks on a start: account, permission, switch, storage, server time, status.
 */
export function startBlockers(s: CallerState): string[] {
  if (!s.server) return ['you do not have a server yet'];
  const reasons: string[] = [];
  if (s.ban) reasons.push('your account is banned, and banned accounts cannot perform server actions');
  if (!hasServerActions(s))
    reasons.push('you are a collaborator without the server:actions permission (only the owner can grant it)');
  if (s.settings.disableServerActions && !s.isAdmin)
    reasons.push('server actions are currently disabled by an administrator');
  if (s.storage.full)
    reasons.push(`storage is full (${s.storage.usedMB}MB of ${s.storage.limitMB}MB), which blocks starting`);
  if (s.time.phase === 'grace') reasons.push('your server time has run out and the server is in its grace period');
  if (s.time.phase === 'expired') reasons.push('your server time has run out and the grace period is over');
  if (s.server.status === 'ONLINE') reasons.push('the server is already ONLINE');
  if (['STARTING', 'STOPPING', 'RESTARTING'].includes(s.server.status))
    reasons.push(`an action is in progress (the server is ${s.server.status})`);
  return reasons;
}
