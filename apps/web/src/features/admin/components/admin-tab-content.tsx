import type { AdminTabId } from '@canopy/contract';
import { type ComponentType, lazy } from 'react';
import { BanLogsTab } from '../bans/ban-logs-tab.tsx';
import { BannedServersTab } from '../bans/banned-servers-tab.tsx';
import { CodesTab } from '../codes/codes-tab.tsx';
import { DashboardTab } from '../dashboard/dashboard-tab.tsx';
import { FeedbackTab } from '../feedback/feedback-tab.tsx';
import { ActivityLogsTab } from '../logs/activity-logs-tab.tsx';
import { PermissionsTab } from '../permissions/permissions-tab.tsx';
import { ServersTab } from '../servers/servers-tab.tsx';
import { SettingsTab } from '../settings/settings-tab.tsx';
import { UsersTab } from '../users/users-tab.tsx';

// The charts library is large and only this tab draws charts: it loads when an admin opens the tab.
const StorageTab = lazy(() => import('../storage/storage-tab.tsx').then((m) => ({ default: m.StorageTab })));

/** The component of each tab of /admin. */
export const adminTabContent: Readonly<Record<AdminTabId, ComponentType>> = {
  dashboard: DashboardTab,
  storage: StorageTab,
  users: UsersTab,
  servers: ServersTab,
  'redeem-codes': CodesTab,
  feedback: FeedbackTab,
  'banned-servers': BannedServersTab,
  'ban-logs': BanLogsTab,
  'activity-logs': ActivityLogsTab,
  permissions: PermissionsTab,
  settings: SettingsTab,
};
