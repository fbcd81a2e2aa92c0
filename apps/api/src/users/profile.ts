import { DEFAULT_STORAGE_LIMIT_MB, GRACE_PERIOD_DAYS, NO_SERVER, type Profile } from '@canopy/contract';
import type { UserRow } from './users.repo.ts';

/** A ban counts while it has no end or its end is still ahead. */
export const isBanActive = (u: UserRow, now: number) =>
  u.is_banned === 1 && (u.ban_expires === null || u.ban_expires > now);

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

const pad = (n: number) => String(n).padStart(2, '0');
const ddmmyyyy = (ms: number) => {
  const d = new Date(ms);
  return `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()}`;
};

/** End of the grace period that follows the end of server time. */
export const graceEndsAt = (expiresAt: number) => expiresAt + GRACE_PERIOD_DAYS * 24 * 3600 * 1000;

/** The spec's estimatedExpiry text: 'permanent', '' (no time), the expiry date, or the grace period's end. */
export function estimatedExpiry(u: UserRow, now: number): string {
  if (u.server_permanent === 1) return 'permanent';
  if (u.server_expires_at === null) return '';
  const expires = Number(u.server_expires_at);
  if (now < expires) return new Date(expires).toISOString();
  return `Grace period ends ${ddmmyyyy(graceEndsAt(expires))}`;
}

const MB = 1024 * 1024;

/** The server a profile shows: the user's own, or the one they collaborate on with their permissions. */
export interface ProfileServer {
  name: string;
  collaboratorPermissions?: string[];
}

/** The profile record of the spec, built from the stored user and their server. */
export function toProfile(u: UserRow, now: number, server: ProfileServer | null = null): Profile {
  const banned = isBanActive(u, now);
  return {
    id: u.id,
    username: u.username,
    discriminator: u.discriminator,
    avatar: u.avatar,
    email: u.email,
    growId: u.grow_id,
    accountType: u.account_type,
    serverOwned: server?.name ?? NO_SERVER,
    registeredAt: iso(u.registered_at),
    availableSlot: Number(u.available_slot),
    credit: Number(u.credit),
    estimatedExpiry: estimatedExpiry(u, now),
    storageUsedMB: Math.round((Number(u.storage_used_bytes) / MB) * 100) / 100,
    storageLimitMB: Number(u.storage_limit_mb ?? DEFAULT_STORAGE_LIMIT_MB),
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
    isCollaborator: server?.collaboratorPermissions !== undefined,
    collaboratorPermissions: server?.collaboratorPermissions ?? [],
    redeemedCodes: [],
  };
}

/** The permissions an admin holds (super admins hold all, decided by the contract). */
export const adminCaller = (u: UserRow) => ({
  isAdmin: u.is_admin === 1,
  isSuperAdmin: u.is_super_admin === 1,
  permissions: JSON.parse(u.admin_permissions || '[]') as string[],
});
