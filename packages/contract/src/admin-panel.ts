import { adminBanMessages } from './admin-bans.ts';
import { adminContentMessages } from './admin-content.ts';
import { adminRoleMessages } from './admin-roles.ts';
import { messages } from './messages.ts';
import type { AdminCaller, AdminPermission } from './permissions.ts';
import { hasAdminPermission } from './permissions.ts';
import type { SettingKey } from './settings.ts';

/** Dashboard stats reload this often while auto refresh is on (admin document, section 9). */
export const ADMIN_STATS_REFRESH_MS = 30_000;

/** The tabs of /admin in sidebar order, each with the permission it needs (admin document, section 2). */
export const adminTabs = [
  { id: 'dashboard', label: 'Dashboard', permission: 'dashboard:view' },
  { id: 'storage', label: 'Storage Analytics', permission: 'dashboard:view' },
  { id: 'users', label: 'Users', permission: 'users:view' },
  { id: 'servers', label: 'Servers', permission: 'servers:view' },
  { id: 'redeem-codes', label: 'Redeem Codes', permission: 'codes:view' },
  { id: 'feedback', label: 'Feedback', permission: 'feedback:view' },
  { id: 'banned-servers', label: 'Banned Servers', permission: 'bans:view' },
  { id: 'ban-logs', label: 'Ban Logs', permission: 'bans:view' },
  { id: 'activity-logs', label: 'Activity Logs', permission: 'logs:view' },
  { id: 'permissions', label: 'Permissions', permission: 'superAdmin' },
  { id: 'settings', label: 'Settings', permission: 'settings:view' },
] as const satisfies readonly { id: string; label: string; permission: AdminPermission | 'superAdmin' }[];
export type AdminTab = (typeof adminTabs)[number];
export type AdminTabId = AdminTab['id'];

/** True when the caller may open the tab (super admins see every tab, the Permissions tab only them). */
export function canOpenAdminTab(caller: AdminCaller, tab: AdminTab): boolean {
  if (tab.permission === 'superAdmin') return caller.isSuperAdmin;
  return hasAdminPermission(caller, tab.permission);
}

/** The tabs a caller may open, in sidebar order. */
export function visibleAdminTabs(caller: AdminCaller): AdminTab[] {
  return adminTabs.filter((tab) => canOpenAdminTab(caller, tab));
}

/** The panel's fallback texts when an answer carries no 'error', and its fixed success toasts (section 8). */
export const adminPanelMessages = {
  noPermission: messages.adminOnly,
  fetchStats: 'Failed to fetch stats.',
  fetchStorage: 'Failed to fetch storage analytics.',
  fetchUsers: 'Failed to fetch users.',
  fetchUser: 'Failed to fetch user.',
  fetchServers: 'Failed to fetch servers.',
  fetchBannedServers: 'Failed to fetch banned servers.',
  fetchBanLogs: 'Failed to fetch ban logs.',
  fetchLogs: 'Failed to fetch logs.',
  fetchCodes: 'Failed to fetch redeem codes.',
  fetchSettings: 'Failed to fetch settings.',
  fetchFeedback: 'Failed to fetch feedback.',
  fetchAdmins: 'Failed to fetch administrators.',
  addBan: 'Failed to add ban.',
  banServerName: 'Failed to ban server name.',
  unban: 'Failed to unban.',
  actionFailed: 'Action failed.',
  deleteCode: 'Failed to delete code.',
  updateStatus: 'Failed to update status.',
  deleteFeedback: 'Failed to delete feedback.',
  saveSettings: 'Save failed',
  applyChange: 'Failed to apply change.',
  banUser: 'Failed to ban user.',
  unbanUser: 'Failed to unban user.',
  setPlan: (plan: 'Free' | 'Paid') => `Failed to set plan to ${plan}.`,
  setStorage: 'Failed to set storage limit.',
  adjustCredit: 'Failed to adjust credit.',
  createCode: 'Failed to create code.',
  bulkFailed: 'Bulk action failed.',
  fetchPermissions: 'Failed to fetch permissions.',
  savePermissions: 'Failed to save permissions.',
  cannotModifySelf: adminRoleMessages.cannotModifySelf,
  settingsSaved: messages.settingsSaved,
  userUnbanned: 'User unbanned.',
  statusUpdated: adminContentMessages.statusUpdated,
  feedbackDeleted: adminContentMessages.feedbackDeleted,
  banReasonRequired: adminBanMessages.reasonAndDurationRequired,
  serverNameBanReasonRequired: 'A reason is required when banning the server name.',
  bannedNameFieldsRequired: adminBanMessages.serverNameAndReasonRequired,
} as const;

/** The eight switches of the Settings tab with their labels and what each does, in display order. */
export const adminSettingLabels: readonly { key: SettingKey; label: string; help: string }[] = [
  { key: 'maintenance', label: 'Maintenance mode', help: 'Non-admins see the maintenance page; admins keep working.' },
  { key: 'disableServerCreation', label: 'Disable server creation', help: 'Users cannot create new servers.' },
  {
    key: 'disableServerActions',
    label: 'Disable server actions',
    help: 'Users cannot start, stop or restart servers.',
  },
  { key: 'disableShop', label: 'Disable shop', help: 'Renew & Shop is locked for users.' },
  { key: 'disableBackupManager', label: 'Disable Backup Manager', help: 'Backups cannot be created or restored.' },
  {
    key: 'disableGeneralConfig',
    label: 'Disable general configuration',
    help: 'The General section of Configuration is locked.',
  },
  { key: 'disableNewbieKit', label: 'Disable Newbie Kit', help: 'The Newbie Kit section of Configuration is locked.' },
  {
    key: 'disableCustomItems',
    label: 'Disable custom items',
    help: 'The Custom Items section of Configuration is locked.',
  },
];
