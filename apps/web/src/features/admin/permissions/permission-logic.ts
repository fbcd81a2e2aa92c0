import { type AdminAccount, type AdminPermission, adminPermissionPresets, adminPermissions } from '@canopy/contract';

/** The editor's groups, in the contract's order: dashboard, users, servers, codes, feedback, bans, logs, settings. */
export interface PermissionGroup {
  area: string;
  permissions: AdminPermission[];
}

/** The permission strings grouped by their area (the part before ':'), in the contract's order. */
export function groupPermissions(list: readonly AdminPermission[] = adminPermissions): PermissionGroup[] {
  const groups: PermissionGroup[] = [];
  for (const permission of list) {
    const area = permission.slice(0, permission.indexOf(':'));
    const group = groups.find((g) => g.area === area);
    if (group) group.permissions.push(permission);
    else groups.push({ area, permissions: [permission] });
  }
  return groups;
}

/** Keeps only known strings, once each, in the contract's order (what the api stores and answers). */
export function normalizePermissions(list: readonly string[]): AdminPermission[] {
  return adminPermissions.filter((p) => list.includes(p));
}

/** The list with one permission switched on or off. */
export function togglePermission(list: readonly AdminPermission[], permission: AdminPermission, on: boolean) {
  return normalizePermissions(on ? [...list, permission] : list.filter((p) => p !== permission));
}

/** The permissions a preset grants (a fresh list: applying a preset replaces the selection). */
export function applyPreset(name: string): AdminPermission[] {
  const preset = adminPermissionPresets.find((p) => p.name === name);
  return preset ? normalizePermissions(preset.permissions) : [];
}

/** The preset the selection matches exactly, or null (the editor marks it). */
export function matchingPreset(list: readonly AdminPermission[]): string | null {
  const selected = normalizePermissions(list).join();
  return adminPermissionPresets.find((p) => normalizePermissions(p.permissions).join() === selected)?.name ?? null;
}

/** The actions of one row of the Permissions tab (admin document, section 4). */
export type AdminRowAction = 'promoteSuper' | 'demoteSuper' | 'remove' | 'edit';

/**
 * Which actions a row offers: an admin can be promoted, removed and have their permissions edited; a super
 * admin can be demoted (they hold every permission, and are demoted before removal). On the caller's own row
 * they are all shown disabled ('Cannot modify self').
 */
export function rowActions(
  row: Pick<AdminAccount, 'id' | 'isSuperAdmin'>,
  selfId: string,
): { actions: AdminRowAction[]; disabled: boolean } {
  const actions: AdminRowAction[] = row.isSuperAdmin ? ['demoteSuper'] : ['promoteSuper', 'edit', 'remove'];
  return { actions, disabled: row.id === selfId };
}
