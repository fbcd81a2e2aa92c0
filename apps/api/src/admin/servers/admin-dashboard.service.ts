import {
  type AdminActivityLog,
  type AdminLogsPage,
  type AdminLogsQuery,
  type AdminStats,
  STORAGE_TOP_CONSUMERS,
  type StorageAnalytics,
} from '@canopy/contract';
import { type ActivityRow, activityRepo } from '../../activity/activity.repo.ts';
import { activityFilterSql } from '../../activity/activity-filter.ts';
import type { AppContext } from '../../context.ts';
import { effectiveStorageLimitMB } from '../../users/profile.ts';
import { pageOf, pageWindow } from '../paging.ts';
import { adminServersRepo } from './admin-servers.repo.ts';

const MB = 1024 * 1024;
/** Two decimals: what a chart label or a table cell shows. */
const round2 = (n: number) => Math.round(n * 100) / 100;

/** The dashboard's four figures: counts from the database, online servers and players from the live engines. */
export async function adminStats(ctx: AppContext): Promise<AdminStats> {
  const { users, servers } = await adminServersRepo.counts(ctx.db);
  let onlineServers = 0;
  let activePlayers = 0;
  for (const s of ctx.servers.feed()) {
    if (s.status === 'ONLINE') onlineServers++;
    activePlayers += s.players;
  }
  return { totalUsers: users, totalServers: servers, onlineServers, activePlayers };
}

/**
 * The Storage Analytics tab: totals, buckets and the top consumers, each computed by the database. Limits
 * are the ones that apply now: a Paid plan raises an account's limit while it lasts (ADR 0019).
 */
export async function storageAnalytics(ctx: AppContext): Promise<StorageAnalytics> {
  const [t, top] = await Promise.all([
    adminServersRepo.storageTotals(ctx.db, { now: ctx.now(), storageMB: ctx.config.paidStorageMB }),
    adminServersRepo.topConsumers(ctx.db, STORAGE_TOP_CONSUMERS),
  ]);
  const accounts = Number(t?.accounts ?? 0);
  const usedBytes = Number(t?.used ?? 0);
  const capacityMB = Number(t?.capacity_mb ?? 0);
  const n = (v: number | string | null | undefined) => Number(v ?? 0);
  return {
    accounts,
    totalUsedMB: round2(usedBytes / MB),
    totalCapacityMB: capacityMB,
    averageUsedMB: accounts === 0 ? 0 : round2(usedBytes / MB / accounts),
    percentUsed: capacityMB === 0 ? 0 : Math.round((usedBytes / (capacityMB * MB)) * 1000) / 10,
    buckets: {
      under100: n(t?.under100),
      from100to256: n(t?.from100to256),
      from256to512: n(t?.from256to512),
      over512: n(t?.over512),
    },
    topConsumers: top.map((r) => ({
      discordId: r.id,
      discordUsername: r.username,
      growId: r.grow_id,
      serverName: r.server_name,
      usedMB: round2(Number(r.storage_used_bytes) / MB),
      limitMB: effectiveStorageLimitMB(r, ctx.now(), ctx.config.paidStorageMB),
    })),
  };
}

/**
 * An entry's details as an object with free keys (admin document, section 3): entries are written as text
 * today, so the text comes back as `{text}`; an entry written as a JSON object comes back as that object.
 */
export function detailsOf(stored: string): Record<string, unknown> {
  if (stored.startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(stored);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    } catch {
      // Text that merely starts with a brace.
    }
  }
  return { text: stored };
}

export const toLog = (r: ActivityRow): AdminActivityLog => ({
  timestamp: new Date(Number(r.timestamp)).toISOString(),
  action: r.action,
  actorType: r.actor_type,
  actorName: r.actor_name,
  details: detailsOf(r.details),
});

/** One page of the activity log within the admin's filters, newest first. */
export async function activityLogs(ctx: AppContext, query: AdminLogsQuery): Promise<AdminLogsPage> {
  const { page, ...filter } = query;
  const { limit, offset } = pageWindow(page);
  const sql = activityFilterSql(filter);
  // The unfiltered log keeps its cheap count (an estimate past 100k rows on PostgreSQL); a filtered one is exact.
  const total = sql.where ? activityRepo.countWhere(ctx.db, sql) : activityRepo.count(ctx.db);
  const [rows, n] = await Promise.all([activityRepo.page(ctx.db, limit, offset, sql), total]);
  return pageOf(rows.map(toLog), n, page);
}
