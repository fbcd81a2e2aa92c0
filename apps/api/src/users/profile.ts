import {
  adminPermissions,
  DEFAULT_AUTOFARM_DELAY_MS,
  DEFAULT_PAID_STORAGE_MB,
  DEFAULT_STORAGE_LIMIT_MB,
  GRACE_PERIOD_DAYS,
  hasAdminPermission,
  NO_SERVER,
  type Profile,
  type ServerTime,
} from '@canopy/contract';
import type { UserRow } from './users.repo.ts';

/** A ban counts while it has no end or its end is still ahead. */
export const isBanActive = (u: UserRow, now: number) =>
  u.is_banned === 1 && (u.ban_expires === null || u.ban_expires > now);

/** A Paid plan counts while it has no end or its end is still ahead (the scheduler then returns it to Free). */
export const paidPlanActive = (u: Pick<UserRow, 'account_type' | 'paid_until'>, now: number) =>
  u.account_type === 'Paid' && (u.paid_until === null || u.paid_until === undefined || Number(u.paid_until) > now);

/** The storage limit that applies now: a Paid plan raises it to at least `paidStorageMB` while it lasts. */
export function effectiveStorageLimitMB(
  u: Pick<UserRow, 'account_type' | 'paid_until' | 'storage_limit_mb'>,
  now: number,
  paidStorageMB: number = DEFAULT_PAID_STORAGE_MB,
): number {
  const own = Number(u.storage_limit_mb ?? DEFAULT_STORAGE_LIMIT_MB);
  return paidPlanActive(u, now) ? Math.max(own, paidStorageMB) : own;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

const pad = (n: number) => String(n).padStart(2, '0');
const ddmmyyyy = (ms: number) => {
  const d = new Date(ms);
  return `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()}`;
};

/** End of the grace period that follows the end of server time. */
export const graceEndsAt = (expiresAt: number) => expiresAt + GRACE_PERIOD_DAYS * 24 * 3600 * 1000;

/**
 * The spec's estimatedExpiry text: 'permanent', '' (no time), the expiry date, or the grace period's end. An
 * account without a server has no grace period (there is no server left to delete, issue 21 item 13): once its
 * time ran out the text stays the past expiry date, which the spec's panel reads as 'Expired'.
 */
export function estimatedExpiry(u: UserRow, now: number, hasServer = true): string {
  if (u.server_permanent === 1) return 'permanent';
  if (u.server_expires_at === null) return '';
  const expires = Number(u.server_expires_at);
  if (now < expires || !hasServer) return new Date(expires).toISOString();
  return `Grace period ends ${ddmmyyyy(graceEndsAt(expires))}`;
}

/** The account's server time has run out (grace or later): not permanent, and its end has passed. */
export function serverTimeRanOut(u: UserRow, now: number): boolean {
  return u.server_permanent !== 1 && u.server_expires_at !== null && Number(u.server_expires_at) <= now;
}

/**
 * The server time as exact instants, read the way the scheduler reads it: permanent accounts and
 * accounts whose server time never started (and has nothing waiting) never run out. Without a server
 * there is no grace period (graceEndsAt null): the scheduler's grace only delays deleting a server.
 */
export function serverTimeOf(u: UserRow, hasServer = true): ServerTime {
  const pending = Number(u.pending_server_ms);
  if (u.server_permanent === 1 || (u.server_expires_at === null && pending <= 0))
    return { permanent: true, expiresAt: null, graceEndsAt: null, pendingMs: 0 };
  if (u.server_expires_at === null) return { permanent: false, expiresAt: null, graceEndsAt: null, pendingMs: pending };
  const expires = Number(u.server_expires_at);
  return {
    permanent: false,
    expiresAt: iso(expires),
    graceEndsAt: hasServer ? iso(graceEndsAt(expires)) : null,
    pendingMs: 0,
  };
}

const MB = 1024 * 1024;

/** The server a profile shows: the user's own, or the one they collaborate on with their permissions. */
export interface ProfileServer {
  name: string;
  collaboratorPermissions?: string[];
  /** The server's owner when it is not the user: server time and storage are the owner's figures. */
  owner?: UserRow;
  /** The crash-loop guard keeps the server offline. */
  crashLoop?: boolean;
  /** The server's autofarm delay (ms) from its config file; the default when not given. */
  autofarmDelay?: number;
}

/** The profile record of the spec, built from the stored user and their server. */
export function toProfile(
  u: UserRow,
  now: number,
  server: ProfileServer | null = null,
  paidStorageMB: number = DEFAULT_PAID_STORAGE_MB,
): Profile {
  const banned = isBanActive(u, now);
  // Time and storage belong to the server, so a collaborator sees the owner's, not their own.
  const figures = server?.owner ?? u;
  return {
    id: u.id,
    username: u.username,
    discriminator: u.discriminator,
    avatar: u.avatar,
    email: u.email,
    growId: u.grow_id,
    accountType: paidPlanActive(u, now) ? 'Paid' : 'Free',
    paidUntil: paidPlanActive(u, now) ? iso(u.paid_until) : null,
    serverOwned: server?.name ?? NO_SERVER,
    registeredAt: iso(u.registered_at),
    availableSlot: Number(u.available_slot),
    credit: Number(u.credit),
    estimatedExpiry: estimatedExpiry(figures, now, server !== null),
    storageUsedMB: Math.round((Number(figures.storage_used_bytes) / MB) * 100) / 100,
    storageLimitMB: effectiveStorageLimitMB(figures, now, paidStorageMB),
    isBanned: banned,
    banInfo: banned
      ? {
          reason: u.ban_reason ?? '',
          bannedBy: u.banned_by ?? 'System',
          bannedAt: iso(u.banned_at) ?? '',
          expires: iso(u.ban_expires),
        }
      : null,
    isAdmin: u.is_admin === 1,
    isSuperAdmin: u.is_super_admin === 1,
    adminPermissions: heldAdminPermissions(u),
    isCollaborator: server?.collaboratorPermissions !== undefined,
    collaboratorPermissions: server?.collaboratorPermissions ?? [],
    // Filled by the profile call from the claims (users.service.ts): this function reads no tables.
    redeemedCodes: [],
    serverTime: serverTimeOf(figures, server !== null),
    serverCrashLoop: server?.crashLoop ?? false,
    server: server ? { config: { autofarmDelay: server.autofarmDelay ?? DEFAULT_AUTOFARM_DELAY_MS } } : null,
    lastServerDeletion: server ? null : lastServerDeletion(u),
  };
}

/** The user's last deleted server, as the dashboard's notice tells it (see toProfile: only while they have none). */
function lastServerDeletion(u: UserRow): Profile['lastServerDeletion'] {
  if (u.server_deleted_at == null || !u.server_deleted_name || !u.server_deleted_by) return null;
  return {
    name: u.server_deleted_name,
    at: new Date(Number(u.server_deleted_at)).toISOString(),
    by: u.server_deleted_by,
  };
}

/** The permissions an admin holds (super admins hold all, decided by the contract). */
export const adminCaller = (u: UserRow) => ({
  isAdmin: u.is_admin === 1,
  isSuperAdmin: u.is_super_admin === 1,
  permissions: storedPermissions(u.admin_permissions),
});

/**
 * The stored permission list, or none when the column holds anything but a JSON array of strings: a hand-edited
 * row must neither break the user's every request (a parse error) nor grant by substring (`includes` on a string).
 */
export function storedPermissions(text: string | null): string[] {
  try {
    const value: unknown = JSON.parse(text || '[]');
    return Array.isArray(value) ? value.filter((p): p is string => typeof p === 'string') : [];
  } catch {
    return [];
  }
}

/** The permission strings the profile reports, so the panel shows only the admin tabs and buttons the api allows. */
function heldAdminPermissions(u: UserRow): string[] {
  const caller = adminCaller(u);
  return adminPermissions.filter((p) => hasAdminPermission(caller, p));
}
