import { statfs } from 'node:fs/promises';
import { hostingMessages as m } from '@canopy/contract';
import { backupsRepo } from '../backups/backups.repo.ts';
import type { AppContext } from '../context.ts';
import { AppError, conflict, notFound } from '../errors.ts';
import { effectiveStorageLimitMB } from '../users/profile.ts';
import { type UserRow, usersRepo } from '../users/users.repo.ts';
import { measureServerData, recordServerData, serverDataBytes } from './server-usage.ts';
import { type ServerRow, serversRepo } from './servers.repo.ts';

const MB = 1024 * 1024;

/**
 * What an account stores: its server's files (config files, textures, the engine's database: server-usage.ts), what
 * writes to the server stored in the platform database (its activity entries: serversRepo.activityBytes), and
 * its backup (one per account, kept apart from the server so that it outlives it). `fresh` asks the server's
 * engine (a files-only one when it is offline) instead of counting an offline server by its recorded figure.
 */
export async function accountStorageBytes(
  ctx: AppContext,
  ownerId: string,
  server?: ServerRow,
  opts: { fresh?: boolean; dataBytes?: number } = {},
): Promise<number> {
  const data = !server
    ? 0
    : opts.dataBytes !== undefined
      ? await recordServerData(ctx, server, opts.dataBytes)
      : opts.fresh
        ? await measureServerData(ctx, server)
        : await serverDataBytes(ctx, server);
  const activity = server ? await serversRepo.activityBytes(ctx.db, server.id) : 0;
  return data + activity + (await backupsRepo.bytesOf(ctx.db, ownerId));
}

/**
 * What the server's owner stores now, asked of the server's engine (a files-only one while it is offline) rather
 * than read from the owner's figure, which the scheduler refreshes only now and then (a tenant once passed a 20 MB
 * limit by seven saves in between). The figure is brought up to date on the way, best effort: a full disk must not
 * turn a refusal into a 500.
 */
async function measure(
  ctx: AppContext,
  server: ServerRow,
  owner: UserRow,
  opts: { fresh?: boolean; dataBytes?: number } = { fresh: true },
): Promise<number> {
  const bytes = await accountStorageBytes(ctx, owner.id, server, opts);
  if (bytes !== Number(owner.storage_used_bytes))
    await usersRepo
      .setStorageUsed(ctx.db, owner.id, bytes)
      .catch((error) => ctx.log.warn({ err: error, server: server.name }, 'could not record storage use'));
  return bytes;
}

/** The owner's limit now, in bytes: a Paid plan raises it while it lasts. */
const limitBytes = (ctx: AppContext, owner: UserRow) =>
  effectiveStorageLimitMB(owner, ctx.now(), ctx.config.paidStorageMB) * MB;

/** The server's owner: storage belongs to them, also when a collaborator acts. */
async function ownerOf(ctx: AppContext, server: ServerRow, caller?: UserRow): Promise<UserRow> {
  const owner = caller?.id === server.owner_id ? caller : await usersRepo.findById(ctx.db, server.owner_id);
  if (!owner) throw notFound(m.serverNotFound, 'no_server');
  return owner;
}

/**
 * Free space the platform keeps on the data directory's disk for itself: 5 % of the disk, at least 1 MB
 * and at most 256 MB. Tenants share that disk with the platform database, so their writes stop short of
 * it, and one tenant filling the disk cannot lock everyone out of signing in.
 */
export function hostReserveBytes(diskBytes: number): number {
  return Math.min(256 * MB, Math.max(MB, Math.floor(diskBytes * 0.05)));
}

/** Refuses (507) a tenant's write of `growth` bytes, or a start, that would eat into the host's reserve. */
async function assertHostRoom(ctx: AppContext, growth: number): Promise<void> {
  const disk = await statfs(ctx.config.dataDir).catch(() => null);
  if (!disk) return; // a platform that cannot tell: the write itself will say if the disk is full
  const free = disk.bavail * disk.bsize;
  if (free - growth < hostReserveBytes(disk.blocks * disk.bsize)) throw new AppError(507, 'disk_full', m.diskFull);
}

/**
 * Refuses a start or restart while the owner's storage is at or over its limit (the spec's start rule),
 * or while the host's disk is down to its reserve (an engine that cannot write would only fail to start).
 */
export async function assertStorageToStart(ctx: AppContext, server: ServerRow, caller?: UserRow): Promise<void> {
  await assertHostRoom(ctx, 0);
  const owner = await ownerOf(ctx, server, caller);
  // An offline server counts by its recorded figure (its files changed since only through calls that measured,
  // and the stop measured its database): asking a files-only engine first would cost every start a spawn.
  const fresh = ctx.servers.runtime.state(server.id).status === 'ONLINE';
  if ((await measure(ctx, server, owner, { fresh })) >= limitBytes(ctx, owner))
    throw conflict(m.storageFull, 'storage_full');
}

/**
 * Refuses a write that grows the server's data when the server is at or over its limit, or when the
 * write (estimated at `growth` bytes, the request body's size) would take it past the limit.
 */
export async function assertStorageForWrite(
  ctx: AppContext,
  server: ServerRow,
  growth: number,
  caller?: UserRow,
  /** What the server's engine reported it stores, when the caller asked it just now (not asked again). */
  dataBytes?: number,
): Promise<void> {
  // On disk a write takes more than its JSON: the engine's write-ahead log holds it before the database does.
  await assertHostRoom(ctx, growth * 2);
  const owner = await ownerOf(ctx, server, caller);
  const limit = limitBytes(ctx, owner);
  const used = await measure(ctx, server, owner, dataBytes === undefined ? { fresh: true } : { dataBytes });
  if (used >= limit || used + growth > limit) throw conflict(m.storageFullWrite, 'storage_full');
}
