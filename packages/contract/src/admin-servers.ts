import { z } from 'zod';
import { adminCommonLabels } from './admin-labels.ts';
import { adminPageSchema } from './admin-paging.ts';
import { actorTypeSchema } from './hosting.ts';
import { serverStatusSchema } from './server.ts';

/** Texts of the admin servers, stats, storage and activity calls that the owner's texts do not cover. */
export const adminServerMessages = {
  // Not in the spec: an admin starts a server by the owner's rules, and a banned owner's server stays down.
  ownerBanned: "The owner's account is banned, so their server cannot be started.",
  deleted: (name: string) => `Server "${name}" deleted successfully.`,
  unknownAction: (action: string) => `Unknown server action '${action}'. Use start, stop or restart.`,
} as const;

/** A row of GET /admin/all-servers: the stored server with its live status and players. */
export const adminServerRowSchema = z.object({
  name: z.string(),
  ownerId: z.string(),
  ownerGrowId: z.string().nullable(),
  status: serverStatusSchema,
  players: z.number().int().nonnegative(),
  /** ISO 8601. */
  createdAt: z.string(),
});
export type AdminServerRow = z.infer<typeof adminServerRowSchema>;

/** Answer of GET /admin/all-servers?page=&search= (search: server name or owner GrowID). */
export const adminServersPageSchema = adminPageSchema(adminServerRowSchema);
export type AdminServersPage = z.infer<typeof adminServersPageSchema>;

/** Answer of GET /admin/stats: counts from the database, online servers and players from the live engines. */
export const adminStatsSchema = z.object({
  totalUsers: z.number().int().nonnegative(),
  totalServers: z.number().int().nonnegative(),
  onlineServers: z.number().int().nonnegative(),
  activePlayers: z.number().int().nonnegative(),
});
export type AdminStats = z.infer<typeof adminStatsSchema>;

/** The storage buckets of the Storage Analytics tab, in MB (admin document, section 9). */
export const STORAGE_BUCKETS = [
  { key: 'under100', label: 'Under 100 MB' },
  { key: 'from100to256', label: '100 to 256 MB' },
  { key: 'from256to512', label: 'Above 256 up to 512 MB' },
  { key: 'over512', label: 'Above 512 MB' },
] as const;
export type StorageBucketKey = (typeof STORAGE_BUCKETS)[number]['key'];

/** How many accounts the Storage Analytics tab lists as the top consumers. */
export const STORAGE_TOP_CONSUMERS = 10;

/** One of the top consumers. Sizes in MB with two decimals. */
export const storageConsumerSchema = z.object({
  discordId: z.string(),
  discordUsername: z.string(),
  growId: z.string().nullable(),
  serverName: z.string().nullable(),
  usedMB: z.number().nonnegative(),
  limitMB: z.number().nonnegative(),
});
export type StorageConsumer = z.infer<typeof storageConsumerSchema>;

/**
 * Answer of GET /admin/storage-analytics, over registered accounts (those with a GrowID: the ones that can
 * host). Sizes in MB with two decimals; percentUsed is totalUsedMB of totalCapacityMB, one decimal. Limits are
 * the ones that apply now (a Paid plan raises an account's limit while it lasts).
 * Buckets: under 100 MB; 100 MB up to 256 MB; above 256 up to 512 MB; above 512 MB.
 */
export const storageAnalyticsSchema = z.object({
  accounts: z.number().int().nonnegative(),
  totalUsedMB: z.number().nonnegative(),
  totalCapacityMB: z.number().nonnegative(),
  averageUsedMB: z.number().nonnegative(),
  percentUsed: z.number().nonnegative(),
  buckets: z.object({
    under100: z.number().int().nonnegative(),
    from100to256: z.number().int().nonnegative(),
    from256to512: z.number().int().nonnegative(),
    over512: z.number().int().nonnegative(),
  }),
  topConsumers: z.array(storageConsumerSchema).max(STORAGE_TOP_CONSUMERS),
});
export type StorageAnalytics = z.infer<typeof storageAnalyticsSchema>;

// The query of GET /admin/logs, with its filters, is in admin-audit.ts.

/**
 * A row of GET /admin/logs. details is an object with free keys (admin document, section 3): the stored
 * object when the entry was written as JSON, else `{text}` holding the entry's text.
 */
export const adminActivityLogSchema = z.object({
  /** ISO 8601. */
  timestamp: z.string(),
  action: z.string(),
  actorType: actorTypeSchema,
  actorName: z.string(),
  details: z.record(z.string(), z.unknown()),
});
export type AdminActivityLog = z.infer<typeof adminActivityLogSchema>;

/** Answer of GET /admin/logs?page=: newest first. */
export const adminLogsPageSchema = adminPageSchema(adminActivityLogSchema);
export type AdminLogsPage = z.infer<typeof adminLogsPageSchema>;

/** Labels of the admin Servers tab and its delete dialog (the spec leaves them open; section 8 has the toasts). */
export const adminServerLabels = {
  searchLabel: 'Search servers',
  searchPlaceholder: 'Server name or owner GrowID',
  name: 'Name',
  owner: 'Owner GrowID',
  status: 'Status',
  players: 'Players',
  actions: 'Actions',
  noOwnerGrowId: 'Not registered',
  start: 'Start',
  stop: 'Stop',
  restart: 'Restart',
  delete: 'Delete',
  noServers: 'No servers yet.',
  noServersMatch: 'No servers match this search.',
  deleteTitle: 'Delete server',
  deleteConfirm: (name: string) =>
    `Delete the server "${name}" and all of its worlds and files? This cannot be undone.`,
  alsoBan: 'Also ban the server name',
  alsoBanHint: 'Nobody can create a server with this name afterwards.',
  banReason: 'Reason',
  banReasonPlaceholder: 'Why the name is banned',
  cancel: adminCommonLabels.cancel,
} as const;
