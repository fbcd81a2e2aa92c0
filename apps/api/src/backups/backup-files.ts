import { randomUUID } from 'node:crypto';
import { mkdir, open, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { backupMessages as b } from '@canopy/contract';
import { AppError } from '../errors.ts';
import type { BackupRow } from './backups.repo.ts';
import type { VerifyOutcome } from './verify-worker.ts';

/**
 * Where accounts' backups live: `<data dir>/backups/<owner id>/backup.db`. Anything else in an owner's
 * folder is a temporary file of a create that did not finish (removed by reconcile at start).
 */
export const backupsRoot = (dataDir: string) => join(dataDir, 'backups');
export const backupDir = (dataDir: string, ownerId: string) => join(backupsRoot(dataDir), ownerId);
export const backupFile = (dataDir: string, ownerId: string) => join(backupDir(dataDir, ownerId), BACKUP_NAME);
export const BACKUP_NAME = 'backup.db';
/** A temporary name beside `final` for a file that is renamed into place once complete and verified. */
export const tempBeside = (final: string) => `${final}${TEMP_INFIX}${randomUUID()}`;
const TEMP_INFIX = '.tmp-';

/**
 * Removes the temporary files of earlier creates from an owner's backup folder: the api's own are removed
 * when a create fails, but the engine's `<temp>.partial-*` stays when the engine is killed during its
 * online backup (a stop that had to escalate), a file as large as the database that no storage figure
 * counts. Only while no other backup action of the owner runs (backups.service.ts `oneAtATime`).
 */
export async function sweepTemps(dir: string): Promise<void> {
  for (const name of await list(dir))
    if (name.startsWith(`${BACKUP_NAME}${TEMP_INFIX}`)) await rm(join(dir, name), { force: true }).catch(() => {});
}

/** Makes the owner's backup folder (0700) and returns it. */
export async function ensureBackupDir(dataDir: string, ownerId: string): Promise<string> {
  const dir = backupDir(dataDir, ownerId);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/**
 * Integrity check (unless `integrity` is false: the sha256 only) and sha256 of a database file, in a
 * worker thread (see verify-worker.ts). A missing file says so; one that does not open or fails the
 * check is 'integrity'.
 */
export async function verifyDatabase(path: string, integrity = true): Promise<VerifyOutcome> {
  if (!(await exists(path))) return { ok: false, reason: 'missing', detail: `${path} does not exist` };
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./verify-worker.ts', import.meta.url), { workerData: { path, integrity } });
    worker.once('message', (outcome: VerifyOutcome) => resolve(outcome));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`verification worker exited with ${code}`)));
  });
}

/** Removes a database's -wal, -shm and -journal files. */
export async function removeSidecars(file: string): Promise<void> {
  for (const extra of ['-wal', '-shm', '-journal']) await rm(`${file}${extra}`, { force: true });
}

/** fsync of a file or directory (best effort on platforms that refuse it for directories). */
export async function fsyncPath(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } catch {
    // some file systems do not sync directories; the rename is still atomic
  } finally {
    await handle.close();
  }
}

/** Removes a file and its SQLite sidecars; never throws (used on failure paths). */
export async function discard(path: string): Promise<void> {
  await rm(path, { force: true }).catch(() => {});
  await removeSidecars(path).catch(() => {});
}

export async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** Names in a folder ([] when it does not exist). */
export async function list(dir: string): Promise<string[]> {
  return readdir(dir).catch(() => []);
}

/** Checks a file against the backup's record; throws the reason it cannot be restored. */
export async function assertIntact(path: string, row: BackupRow, integrity: boolean) {
  const outcome = await verifyDatabase(path, integrity);
  if (!outcome.ok && outcome.reason === 'missing') throw new AppError(422, 'backup_missing', b.missingFile);
  if (!outcome.ok) throw new AppError(422, 'backup_damaged', b.damagedIntegrity);
  if (outcome.sha256 !== row.sha256 || outcome.bytes !== row.bytes)
    throw new AppError(422, 'backup_damaged', b.damagedChecksum);
}
