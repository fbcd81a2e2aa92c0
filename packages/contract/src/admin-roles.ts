import { z } from 'zod';
import { adminCommonLabels } from './admin-labels.ts';
import { adminPageSchema } from './admin-paging.ts';
import { type AdminPermission, adminPermissions } from './permissions.ts';
import { discordIdSchema } from './server-pages.ts';

/** Texts of the Permissions tab's calls (admin document, sections 4 and 8, and our own answers). */
export const adminRoleMessages = {
  cannotModifySelf: 'Cannot modify self',
  superAdminOnly: 'Only a super admin can do this.',
  userNotFound: 'User not found.',
  alreadyAdmin: 'This user is already an admin.',
  notAdmin: 'This user is not an admin.',
  alreadySuperAdmin: 'This user is already a super admin.',
  onlyAdminPromoted: 'Only an admin can be promoted to super admin.',
  notSuperAdmin: 'This user is not a super admin.',
  demoteFirst: 'Demote this super admin to admin before removing them.',
  lastSuperAdmin: 'The last super admin cannot be demoted.',
  /** Admins cannot be banned (admin document, section 4): a banned user is unbanned before promotion. */
  bannedCannotBeAdmin: 'A banned user cannot be made an admin. Unban them first.',
  permissionInvalid: `Permissions must be from: ${adminPermissions.join(', ')}.`,
  promoted: (who: string) => `${who} is now an admin.`,
  removed: (who: string) => `${who} is no longer an admin.`,
  promotedSuper: (who: string) => `${who} is now a super admin.`,
  demotedSuper: (who: string) => `${who} is now an admin.`,
  permissionsSaved: (who: string) => `Permissions of ${who} saved.`,
  operatorUnknownUser: (id: string) =>
    `No user with Discord ID ${id}: they must sign in to the panel once before they can be made an admin.`,
} as const;

/** Labels of the Permissions tab (web). */
export const adminRoleLabels = {
  promoteHeading: 'Promote user to admin',
  discordIdLabel: 'Discord ID',
  discordIdPlaceholder: 'e.g. 123456789012345678',
  promote: 'Promote',
  column: { admin: 'Administrator', growId: 'GrowID', role: 'Role', permissions: 'Permissions', actions: 'Actions' },
  noAdmins: 'No administrators.',
  roleSuper: 'Super Admin',
  roleAdmin: 'Admin',
  allPermissions: 'All',
  permissionCount: (n: number, of: number) => `${n} of ${of}`,
  promoteSuper: 'Promote to Super Admin',
  demoteSuper: 'Demote to Admin',
  removeAdmin: 'Remove admin',
  editPermissions: 'Edit permissions',
  removeTitle: 'Remove admin',
  removeConfirm: (who: string) => `Remove ${who} from the administrators? They lose every admin permission.`,
  promoteSuperTitle: 'Promote to Super Admin',
  promoteSuperConfirm: (who: string) =>
    `Make ${who} a super admin? They get every permission, including managing other administrators.`,
  demoteSuperTitle: 'Demote to Admin',
  demoteSuperConfirm: (who: string) =>
    `Make ${who} an admin again? They keep only the permissions granted to them as an admin.`,
  editorTitle: (who: string) => `Permissions of ${who}`,
  presets: 'Presets',
  save: 'Save',
  cancel: adminCommonLabels.cancel,
  retry: 'Retry',
} as const;

/** The permission editor's presets (admin document, section 6), in the editor's order. */
export const adminPermissionPresets: readonly { name: string; permissions: readonly AdminPermission[] }[] = [
  { name: 'No Permissions', permissions: [] },
  {
    name: 'Moderator',
    permissions: ['dashboard:view', 'users:view', 'servers:view', 'bans:view', 'logs:view', 'feedback:view'],
  },
  {
    name: 'Support Agent',
    permissions: [
      'dashboard:view',
      'users:view',
      'users:manage',
      'servers:view',
      'codes:view',
      'feedback:view',
      'feedback:manage',
    ],
  },
  { name: 'Manager', permissions: adminPermissions },
];

/** Body of POST /admin/admins and POST /admin/superadmins. */
export const adminTargetSchema = z.object({ discordId: discordIdSchema });

/**
 * Body of PUT /admin/admins/{discordId}/permissions: known permission strings only; duplicates are
 * dropped and the list comes back in the contract's order.
 */
export const adminPermissionsBodySchema = z.object({
  permissions: z
    .array(z.enum(adminPermissions, { error: adminRoleMessages.permissionInvalid }), {
      error: adminRoleMessages.permissionInvalid,
    })
    .max(adminPermissions.length * 4, adminRoleMessages.permissionInvalid)
    .transform((list) => adminPermissions.filter((p) => list.includes(p))),
});

/** Answer of GET /admin/admins/{discordId}/permissions. */
export const adminPermissionsSchema = z.object({ permissions: z.array(z.enum(adminPermissions)) });

/** One row of GET /admin/admins: the Permissions tab's list of administrators. */
export const adminAccountSchema = z.object({
  id: z.string(),
  username: z.string(),
  growId: z.string().nullable(),
  isAdmin: z.boolean(),
  isSuperAdmin: z.boolean(),
  permissions: z.array(z.string()),
});
export type AdminAccount = z.infer<typeof adminAccountSchema>;
export const adminAccountPageSchema = adminPageSchema(adminAccountSchema);
