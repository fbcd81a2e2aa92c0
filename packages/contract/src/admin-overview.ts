import type { AdminStats } from './admin-servers.ts';

/**
 * Texts of the Dashboard, Storage Analytics, Activity Logs and Settings tabs of /admin that section 8 of the
 * admin document does not fix (its fallbacks and toasts are in `adminPanelMessages`).
 */
export const adminOverviewMessages = {
  autoRefresh: 'Auto refresh (every 30 s)',
  refresh: 'Refresh',
  figuresLabel: 'Platform totals',
  storageTotalUsed: 'Total used',
  storageTotalCapacity: 'Total capacity',
  storageAverage: 'Average usage',
  storageOverall: 'Overall usage',
  storageUsedOfCapacity: 'Used of total capacity',
  storageAccounts: (count: number) =>
    `Over ${count.toLocaleString()} registered ${count === 1 ? 'account' : 'accounts'}`,
  storageDistribution: 'Distribution by size',
  storageDistributionChart: 'Bar chart: number of accounts in each storage size bucket',
  storageAccountsAxis: 'Accounts',
  storageTopConsumers: 'Top 10 consumers',
  storageTopChart: 'Horizontal bar chart: storage used against the limit by the top 10 consumers, in MB',
  storageUsed: 'Used (MB)',
  storageLimit: 'Limit (MB)',
  storageAccountColumn: 'Account',
  storageNoConsumers: 'No registered accounts yet.',
  logsTime: 'Time',
  logsAction: 'Action',
  logsActor: 'Actor',
  logsDetails: 'Details',
  logsEmpty: 'No activity recorded yet.',
  settingsSave: 'Save',
  settingsDiscard: 'Discard',
  settingsViewOnly: 'You may only view these settings: saving them needs the settings:manage permission.',
  settingsUnsaved: 'Unsaved changes',
} as const;

/** The four figures of the Dashboard tab with their labels, in display order (admin document, section 3). */
export const adminStatFigures: readonly { key: keyof AdminStats; label: string }[] = [
  { key: 'totalUsers', label: 'Total Users' },
  { key: 'totalServers', label: 'Total Servers' },
  { key: 'onlineServers', label: 'Online Servers' },
  { key: 'activePlayers', label: 'Active Players' },
];
