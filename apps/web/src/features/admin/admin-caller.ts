import { type AdminCaller, type AdminPermission, hasAdminPermission, type Profile } from '@canopy/contract';
import { useRegisteredProfile } from '../../lib/profile-query.ts';

/** The caller as the admin rules see them, from the profile (the api decides again on every call). */
export function adminCallerOf(profile: Pick<Profile, 'isAdmin' | 'isSuperAdmin' | 'adminPermissions'>): AdminCaller {
  return { isAdmin: profile.isAdmin, isSuperAdmin: profile.isSuperAdmin, permissions: profile.adminPermissions };
}

/**
 * Whether the signed-in admin holds a permission: buttons they may not use are hidden or disabled
 * (admin document, section 6). Hiding is a courtesy; the api refuses the call anyway.
 */
export function useAdminCan(): (permission: AdminPermission) => boolean {
  const { profile } = useRegisteredProfile();
  const caller = adminCallerOf(profile);
  return (permission) => hasAdminPermission(caller, permission);
}
