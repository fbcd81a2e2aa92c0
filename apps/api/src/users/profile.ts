import { DEFAULT_STORAGE_LIMIT_MB, NO_SERVER, type Profile } from '@canopy/contract';
import type { UserRow } from './users.repo.ts';

/** A ban counts while it has no end or its end is still ahead. */
export const isBanActive = (u: UserRow, now: number) =>
  u.is_banned === 1 && (u.ban_expires === null || u.ban_expires > now);

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

/** The profile record of the spec, built from the stored user. */
export function toProfile(u: UserRow, now: number): Profile {
  const banned = isBanActive(u, now);
  return {
    id: u.id,
    username: u.username,
    discriminator: u.discriminator,
    avatar: u.avatar,
    email: u.email,
    growId: u.grow_id,
    accountType: u.account_type,
    serverOwned: NO_SERVER,
    registeredAt: iso(u.registered_at),
    availableSlot: Number(u.available_slot),
    credit: Number(u.credit),
    estimatedExpiry: '',
    storageUsedMB: 0,
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
    isCollaborator: false,
    collaboratorPermissions: [],
    redeemedCodes: [],
  };
}

/** The permissions an admin holds (super admins hold all, decided by the contract). */
export const adminCaller = (u: UserRow) => ({
  isAdmin: u.is_admin === 1,
  isSuperAdmin: u.is_super_admin === 1,
  permissions: JSON.parse(u.admin_permissions || '[]') as string[],
});
