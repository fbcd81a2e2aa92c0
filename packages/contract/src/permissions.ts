/** Permission strings granted to collaborators of a server (server-management document). */
export const collaboratorPermissions = [
  'server:actions',
  'worlds:manage',
  'players:manage',
  'backups:manage',
  'config:manage',
  'console:use',
] as const;
export type CollaboratorPermission = (typeof collaboratorPermissions)[number];

/** Permission strings of administrators (admin document, section 6). */
export const adminPermissions = [
  'dashboard:view',
  'users:view',
  'users:manage',
  'users:bulk_actions',
  'servers:view',
  'servers:manage',
  'servers:delete',
  'codes:view',
  'codes:manage',
  'feedback:view',
  'feedback:manage',
  'bans:view',
  'bans:manage',
  'logs:view',
  'settings:view',
  'settings:manage',
] as const;
export type AdminPermission = (typeof adminPermissions)[number];

/** What an admin check needs to know about the caller. */
export interface AdminCaller {
  isAdmin: boolean;
  isSuperAdmin: boolean;
  permissions: readonly string[];
}

/** Super admins hold every permission; admins only the ones granted to them. */
export function hasAdminPermission(caller: AdminCaller, permission: AdminPermission): boolean {
  if (caller.isSuperAdmin) return true;
  return caller.isAdmin && caller.permissions.includes(permission);
}
