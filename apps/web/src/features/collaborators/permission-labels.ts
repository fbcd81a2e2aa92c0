import { type CollaboratorPermission, collaboratorPermissions } from '@canopy/contract';

/** How a permission reads on the Collaborators page. */
export interface PermissionLabel {
  label: string;
  description: string;
}

const labels: Record<CollaboratorPermission, PermissionLabel> = {
  'server:actions': { label: 'Server Actions', description: 'Start, stop and restart the server.' },
  'worlds:manage': { label: 'Manage Worlds', description: 'Use the World Manager.' },
  'players:manage': { label: 'Manage Players', description: 'Edit and ban players in the Player Database.' },
  'backups:manage': { label: 'Manage Backups', description: 'Create, restore and delete the backup.' },
  'config:manage': { label: 'Manage Configuration', description: 'Change the server configuration.' },
  'console:use': { label: 'Use Console', description: 'Read the console and send commands.' },
};

/** The readable label of a permission id; an id the panel does not know is shown as it is. */
export function permissionLabel(permission: string): string {
  return labels[permission as CollaboratorPermission]?.label ?? permission;
}

/** The checkbox options in the contract's order. */
export const permissionOptions: readonly ({ id: CollaboratorPermission } & PermissionLabel)[] =
  collaboratorPermissions.map((id) => ({ id, ...labels[id] }));

/** The known permissions of a stored list, in the contract's order (unknown ids are dropped). */
export function knownPermissions(list: readonly string[]): CollaboratorPermission[] {
  return collaboratorPermissions.filter((id) => list.includes(id));
}
