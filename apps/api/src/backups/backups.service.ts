import { join } from 'node:path';
import { type BackupStatus, backupMessages as b, hostingMessages as m, messages } from '@canopy/contract';
import type { ServerAccess } from '../access/server-access.ts';
import { logServerAction } from '../activity/server-activity.ts';
import { alertDeps, backupAlert, notifyServer } from '../alerts/notify.ts';
import { collaboratorsRepo } from '../collaborators/collaborators.repo.ts';
import { serialised } from '../configuration/config-files.ts';
import type { AppContext } from '../context.ts';
import { isUniqueViolation } from '../db/db.ts';
import { AppError, conflict, forbidden, notFound } from '../errors.ts';
import { serversRepo } from '../servers/servers.repo.ts';
import { accountStorageBytes, assertStorageForWrite } from '../servers/storage-quota.ts';
import { usersRepo } from '../users/users.repo.ts';
import {
  assertIntact,
  BACKUP_NAME,
  backupFile,
  discard,
  ensureBackupDir,
  sweepTemps,
  tempBeside,
  verifyDatabase,
} from './backup-files.ts';
import { backupStore } from './backup-store.ts';
import { type BackupRow, backupsRepo } from './backups.repo.ts';
import { faultPoint } from './fault.ts';

/** disableBackupManager locks the feature for everyone but admins. */
export function assertEnabled(access: ServerAccess) {
  if (access.settings.disableBackupManager && !access.isAdmin)
    throw forbidden(messages.featureDisabled, 'feature_disabled');
}

const log = logServerAction;

/**
 * Brings the owner's storage figure up to date after the backup changed (best effort); `fresh` asks the server's
 * engine again (a restore replaced its database).
 */
async function refreshFigure(ctx: AppContext, { server }: ServerAccess, fresh = false) {
  try {
    const bytes = await accountStorageBytes(ctx, server.owner_id, server, { fresh });
    await usersRepo.setStorageUsed(ctx.db, server.owner_id, bytes);
  } catch (error) {
    ctx.log.warn({ err: error, server: server.name }, 'could not record storage use after a backup action');
  }
}

/** GET: whether the account (the server's owner) has a backup, when it was made and its size. */
export async function backupStatus(ctx: AppContext, access: ServerAccess): Promise<BackupStatus> {
  assertEnabled(access);
  const row = await backupsRepo.find(ctx.db, access.server.owner_id);
  if (!row) return { exists: false, createdAt: null, bytes: 0 };
  return { exists: true, createdAt: new Date(row.created_at).toISOString(), bytes: row.bytes };
}

/**
 * Accounts with a backup action (create, restore, delete) under way in this api process; another one for
 * the same account is refused (409) instead of waiting. Without it, N creates sent at once all passed the
 * "no backup yet" and storage checks and each made a full snapshot (N copies of the database on disk, past
 * the storage limit), and N restores queued behind each other without bound.
 */
const acting = new Set<string>();

/**
 * How long a create waits for the engine's snapshot to stream in (and a restore for its upload): a large database
 * takes minutes, and a create given up early leaves the engine copying for nothing.
 */
export const ENGINE_BACKUP_TIMEOUT_MS = 10 * 60_000;

/**
 * Runs a create or restore, recording how long a successful one took and counting a failed one (ADR 0045). A
 * refusal (a 4xx: busy, over the quota, no database) is neither: the request was wrong, not the backup.
 */
async function measured<T>(ctx: AppContext, action: 'create' | 'restore', fn: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    const result = await fn();
    ctx.metrics.backupDone(action, (performance.now() - started) / 1000);
    return result;
  } catch (error) {
    if (!(error instanceof AppError) || error.status >= 500) ctx.metrics.backupFailed(action);
    throw error;
  }
}

async function oneAtATime<T>(ownerId: string, fn: () => Promise<T>): Promise<T> {
  // Checked and taken in one synchronous step, before any await.
  if (acting.has(ownerId)) throw conflict(b.busy, 'backup_busy');
  acting.add(ownerId);
  try {
    return await fn();
  } finally {
    acting.delete(ownerId);
  }
}

/**
 * Takes a snapshot of the server's database through its engine (docs/engine-files-api.md): the running engine's
 * online backup, or a files-only engine's copy while the server is offline (a start waits for it). It streams into
 * a file beside its final place, is verified, stored and recorded. One action per account at a time (`acting`);
 * across processes the row's primary key refuses a second create.
 */
export async function createBackup(ctx: AppContext, access: ServerAccess) {
  assertEnabled(access);
  // In the server's turn with its config saves: a start sent after it waits for it (writesSettled).
  const created = oneAtATime(access.server.owner_id, () =>
    serialised(access.server.id, () => measured(ctx, 'create', () => createOnce(ctx, access))),
  );
  // Queued, not awaited by the answer's fate: a refusal (4xx: exists, busy, no database) is not a failed backup.
  void created.then(
    () => notifyServer(alertDeps(ctx), access.server.id, 'backup_done', backupAlert(access.server.name, null)),
    async (error) => {
      if (error instanceof AppError && error.status < 500) return;
      await notifyServer(alertDeps(ctx), access.server.id, 'backup_failed', backupAlert(access.server.name, error));
    },
  );
  return created;
}

async function createOnce(ctx: AppContext, access: ServerAccess) {
  const { server, user } = access;
  const ownerId = server.owner_id;
  if (await backupsRepo.find(ctx.db, ownerId)) throw conflict(b.alreadyExists, 'backup_exists');
  await ctx.servers.settled(server.id);
  const runtime = ctx.servers.runtime;
  const status = runtime.state(server.id).status;
  if (status !== 'ONLINE' && status !== 'OFFLINE') throw conflict(b.serverBusy, 'server_busy');
  const files = runtime.files(ctx.servers.spec(server));
  const usage = await files.usage();
  if (usage.databaseBytes === 0) throw conflict(b.noDatabase, 'no_database');
  // The backup is about as large as the database it copies, and it is the owner's storage.
  await assertStorageForWrite(ctx, server, usage.databaseBytes, user, usage.bytes);

  const dir = await ensureBackupDir(ctx.config.dataDir, ownerId);
  await sweepTemps(dir);
  const final = join(dir, BACKUP_NAME);
  const temp = tempBeside(final);
  try {
    // Checked again by the api below: what the store takes is verified here, whatever the engine said.
    if (!(await files.snapshot(temp, ENGINE_BACKUP_TIMEOUT_MS))) throw conflict(b.noDatabase, 'no_database');
    const verified = await verifyDatabase(temp);
    if (!verified.ok) {
      ctx.log.error({ server: server.name, detail: verified.detail }, 'a new backup failed verification');
      throw new AppError(500, 'backup_invalid', b.createdNotValid);
    }
    await faultPoint('backup:create-before-commit');
    const row: BackupRow = { owner_id: ownerId, created_at: ctx.now(), bytes: verified.bytes, sha256: verified.sha256 };
    // Stored whole first, recorded after: a row never names a backup the store does not hold (ADR 0037).
    await putOnce(ctx, row, temp);
    try {
      await backupsRepo.insert(ctx.db, row);
    } catch (error) {
      // Our copy goes with the refused row, unless it is the very one the winning row names.
      const winner = await backupsRepo.find(ctx.db, ownerId).catch(() => undefined);
      if (winner?.sha256 !== row.sha256)
        await backupStore(ctx)
          .delete(row)
          .catch(() => {});
      if (isUniqueViolation(error)) throw conflict(b.alreadyExists, 'backup_exists');
      throw error;
    }
  } finally {
    await discard(temp); // nothing left once it was stored; a failed create leaves nothing either
    await sweepTemps(dir);
  }
  await refreshFigure(ctx, access);
  await log(ctx, access, 'Backup created', `${status === 'ONLINE' ? 'online' : 'offline'} snapshot`);
  return { message: b.created };
}

/** Stores the finished file; a backup already stored for the account (a create of another api) is a 409. */
async function putOnce(ctx: AppContext, row: BackupRow, file: string) {
  try {
    await backupStore(ctx).put(row, file, row.bytes);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw conflict(b.alreadyExists, 'backup_exists');
    if (error instanceof AppError) ctx.log.error({ err: error.cause }, 'the backup store refused a new backup');
    throw error;
  }
}

/**
 * Replaces the server's database with the backup. The backup is fetched from the store and verified before the
 * server is touched; then, under the power lock with the engine stopped, it streams to a files-only engine
 * (PUT /restore), which stages it, verifies it again, folds or sets aside the live database's WAL and renames it
 * over engine.db (the commit point). Any failure before the rename leaves the live database as it was. The server
 * stays stopped.
 */
export async function restoreBackup(ctx: AppContext, access: ServerAccess) {
  assertEnabled(access);
  return oneAtATime(access.server.owner_id, () =>
    serialised(access.server.id, () => measured(ctx, 'restore', () => restoreOnce(ctx, access))),
  );
}

async function restoreOnce(ctx: AppContext, access: ServerAccess) {
  const { server } = access;
  const ownerId = server.owner_id;
  if (!(await backupsRepo.find(ctx.db, ownerId))) throw notFound(b.notFound, 'no_backup');
  await ctx.servers.settled(server.id);
  const runtime = ctx.servers.runtime;
  if (runtime.isBusy(server.id)) throw conflict(m.actionInProgress, 'action_in_progress');

  const row = await backupsRepo.find(ctx.db, ownerId);
  if (!row) throw notFound(b.notFound, 'no_backup');
  // Fetched to a local file (the directory store's own) and checked before the server is stopped: a missing or
  // damaged backup, or a store that cannot be reached, leaves it running.
  const scratch = tempBeside(backupFile(ctx.config.dataDir, ownerId));
  await ensureBackupDir(ctx.config.dataDir, ownerId);
  try {
    const local = await backupStore(ctx).localCopy(row, scratch);
    if (!local) throw new AppError(422, 'backup_missing', b.missingFile);
    await assertIntact(local, row, true);
    // The restored database replaces the live one, so the account grows by the difference (and the staged
    // copy needs that room on disk while it is written).
    const files = runtime.files(ctx.servers.spec(server));
    const usage = await files.usage();
    const growth = row.bytes - usage.databaseBytes;
    if (growth > 0) await assertStorageForWrite(ctx, server, growth, access.user, usage.bytes);
    // Recorded first, as a stop is: an api restarted meanwhile must not start the server again.
    await serversRepo.setDesiredState(ctx.db, server.id, 'stopped');
    try {
      await runtime.exclusive(ctx.servers.spec(server), async () => {
        await faultPoint('backup:restore-before-send');
        await files.restore({ sha256: row.sha256, bytes: row.bytes }, local, ENGINE_BACKUP_TIMEOUT_MS);
      });
    } catch (error) {
      // Failed, or never began because a start took the lock during the checks above: the wish follows what
      // the engine does now, so a running server is not left marked 'stopped' (an api restart would stop it).
      const now = runtime.state(server.id).status;
      if (now === 'ONLINE' || now === 'STARTING' || now === 'RESTARTING')
        await serversRepo.setDesiredState(ctx.db, server.id, 'running').catch(() => {});
      throw error;
    }
  } finally {
    await discard(scratch);
  }
  await refreshFigure(ctx, access, true);
  await log(ctx, access, 'Backup restored', 'database replaced by the backup; server left stopped');
  // The spec's text tells the user to restart; one who may not start the server is told who can.
  return { message: (await mayStart(ctx, access)) ? b.restored : b.restoredAskOwner };
}

/** Whether the caller may start the server: its owner, or a collaborator holding server:actions. */
async function mayStart(ctx: AppContext, { isOwner, server, user }: ServerAccess): Promise<boolean> {
  if (isOwner) return true;
  const row = await collaboratorsRepo.find(ctx.db, server.id, user.id);
  return (JSON.parse(row?.permissions ?? '[]') as string[]).includes('server:actions');
}

/** Deletes the account's backup: its record first, then its file (reconcile removes a file left alone). */
export async function deleteBackup(ctx: AppContext, access: ServerAccess) {
  assertEnabled(access);
  const ownerId = access.server.owner_id;
  await oneAtATime(ownerId, async () => {
    const row = await backupsRepo.find(ctx.db, ownerId);
    if (!row) throw notFound(b.notFound, 'no_backup');
    await backupsRepo.delete(ctx.db, row);
    await backupStore(ctx)
      .delete(row)
      .catch((error) => ctx.log.warn({ err: error.cause ?? error, owner: ownerId }, 'backup left for reconcile'));
  });
  await refreshFigure(ctx, access);
  await log(ctx, access, 'Backup deleted', 'account backup deleted');
  return { message: b.deleted };
}
