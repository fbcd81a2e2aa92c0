import type { Db } from '../../db/db.ts';
import type { ServerRow } from '../../servers/servers.repo.ts';
import { containsPattern } from '../paging.ts';

/** A server of the admin list, with its owner's GrowID. */
export interface AdminServerListRow {
  id: string;
  name: string;
  owner_id: string;
  grow_id: string | null;
  created_at: number | string;
}

const serverColumns =
  's.id, s.owner_id, s.name, s.game_port, s.control_secret, s.desired_state, s.created_at, s.last_crash_at';

/**
 * Matches the server name or the owner's GrowID (both stored lower-cased for this). The owners come from
 * one pass over the GrowIDs, evaluated only when a server's name does not match: joining every server to
 * its owner's row first costs twice as much at 20,000 servers (bench/admin.ts).
 */
const serverSearch = (search: string | undefined) =>
  search
    ? {
        where: `WHERE s.name_key LIKE ? ESCAPE '\\'
          OR s.owner_id IN (SELECT id FROM users WHERE grow_id_key LIKE ? ESCAPE '\\')`,
        params: [search, search],
      }
    : { where: '', params: [] as string[] };

const MB = 1024 * 1024;

/** The storage totals of registered accounts. */
export interface StorageTotalsRow {
  accounts: number | string;
  used: number | string | null;
  capacity_mb: number | string | null;
  under100: number | string;
  from100to256: number | string;
  from256to512: number | string;
  over512: number | string;
}

/** What a Paid plan does to a storage limit (users/profile.ts effectiveStorageLimitMB, ADR 0019). */
export interface PaidPlanRule {
  now: number;
  storageMB: number;
}
/** True for an account whose Paid plan lasts at `?` (now) and raises its limit to `?` (the Paid limit). */
const paidRaises = "account_type = 'Paid' AND (paid_until IS NULL OR paid_until > ?) AND storage_limit_mb < ?";

/**
 * Registered accounts: the ones that can host. At 100,000 accounts the reads below want an index holding every
 * column they touch (bench/admin.ts, BENCH_STORAGE_INDEX=1): users (storage_used_bytes, storage_limit_mb,
 * account_type, paid_until, grow_id).
 */
const registered = 'FROM users WHERE grow_id IS NOT NULL';

/**
 * The four buckets of the Storage Analytics tab (admin document, section 9): under 100 MB; 100 MB up to
 * 256 MB; above 256 up to 512 MB; above 512 MB.
 */
const bucketBounds = [
  ['under100', `storage_used_bytes < ${100 * MB}`],
  ['from100to256', `storage_used_bytes >= ${100 * MB} AND storage_used_bytes <= ${256 * MB}`],
  ['from256to512', `storage_used_bytes > ${256 * MB} AND storage_used_bytes <= ${512 * MB}`],
  ['over512', `storage_used_bytes > ${512 * MB}`],
] as const;

export interface StorageConsumerRow {
  id: string;
  username: string;
  grow_id: string | null;
  server_name: string | null;
  storage_used_bytes: number | string;
  storage_limit_mb: number;
  account_type: 'Free' | 'Paid';
  paid_until: number | null;
}

/** The admin panel's reads over servers and accounts: counted, summed and paged in SQL. */
export const adminServersRepo = {
  /** One page of servers by name, optionally filtered, and the filtered total. */
  async page(db: Db, search: string | undefined, limit: number, offset: number) {
    const filter = serverSearch(search === undefined ? undefined : containsPattern(search));
    // The owners' rows are read for the page's servers only.
    const rows = await db.all<AdminServerListRow>(
      `SELECT p.id, p.name, p.owner_id, u.grow_id, p.created_at
       FROM (SELECT s.id, s.name, s.name_key, s.owner_id, s.created_at FROM servers s
             ${filter.where} ORDER BY s.name_key LIMIT ? OFFSET ?) p
       JOIN users u ON u.id = p.owner_id ORDER BY p.name_key`,
      [...filter.params, limit, offset],
    );
    // A page that is not full ends the list, so it tells the total: no second pass over the GrowIDs.
    if (rows.length < limit && (rows.length > 0 || offset === 0)) return { rows, total: offset + rows.length };
    const total = await db.get<{ n: number | string }>(`SELECT COUNT(*) AS n FROM servers s ${filter.where}`, [
      ...filter.params,
    ]);
    return { rows, total: Number(total?.n ?? 0) };
  },

  /** The server of that name, whatever its case. */
  findByName(db: Db, name: string) {
    return db.get<ServerRow>(`SELECT ${serverColumns} FROM servers s WHERE s.name_key = ?`, [name.toLowerCase()]);
  },

  async counts(db: Db) {
    const row = await db.get<{ users: number | string; servers: number | string }>(
      'SELECT (SELECT COUNT(*) FROM users) AS users, (SELECT COUNT(*) FROM servers) AS servers',
    );
    return { users: Number(row?.users ?? 0), servers: Number(row?.servers ?? 0) };
  },

  /**
   * Totals and the four buckets over registered accounts, as the database counts fastest (bench/admin.ts):
   * PostgreSQL in its one (parallel) pass; SQLite as range counts over the storage index, a third of a
   * CASE per row in its single-threaded pass.
   */
  storageTotals(db: Db, paid: PaidPlanRule) {
    const buckets =
      db.dialect === 'postgres'
        ? bucketBounds.map(([key, cond]) => `COUNT(CASE WHEN ${cond} THEN 1 END) AS ${key}`)
        : bucketBounds.map(([key, cond]) => `(SELECT COUNT(*) ${registered} AND ${cond}) AS ${key}`);
    return db.get<StorageTotalsRow>(
      `SELECT COUNT(*) AS accounts, SUM(storage_used_bytes) AS used,
         SUM(CASE WHEN ${paidRaises} THEN ? ELSE storage_limit_mb END) AS capacity_mb, ${buckets.join(', ')}
       ${registered}`,
      [paid.now, paid.storageMB, paid.storageMB],
    );
  },

  /** The registered accounts that store the most, with their server's name. */
  topConsumers(db: Db, limit: number) {
    return db.all<StorageConsumerRow>(
      `SELECT u.id, u.username, u.grow_id, s.name AS server_name, u.storage_used_bytes, u.storage_limit_mb,
         u.account_type, u.paid_until
       FROM (SELECT id, username, grow_id, storage_used_bytes, storage_limit_mb, account_type, paid_until FROM users
             WHERE grow_id IS NOT NULL ORDER BY storage_used_bytes DESC, id LIMIT ?) u
       LEFT JOIN servers s ON s.owner_id = u.id
       ORDER BY u.storage_used_bytes DESC, u.id`,
      [limit],
    );
  },
};
