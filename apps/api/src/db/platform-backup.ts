import { chmodSync, closeSync, existsSync, fsyncSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

/** A refusal the operator can act on (the command prints it and exits 1). */
export class PlatformBackupError extends Error {}

/**
 * Copies the platform's SQLite database (`$CANOPY_DATA_DIR/canopy.db`) to `target` while the panel runs:
 * `VACUUM INTO` reads one consistent snapshot (WAL readers do not block the panel's writer), the copy is
 * checked with `integrity_check`, fsynced and renamed into place, so a killed command or a full disk never
 * leaves a file that looks like a backup. PostgreSQL has pg_dump for this; the command refuses and says so.
 */
export function backupPlatformSqlite(dataDir: string, target: string): { bytes: number } {
  const source = join(dataDir, 'canopy.db');
  if (!existsSync(source)) throw new PlatformBackupError(`No database at ${source}: check CANOPY_DATA_DIR.`);
  const dest = resolve(target);
  if (existsSync(dest)) throw new PlatformBackupError(`${dest} exists; name a new file.`);
  if (!existsSync(dirname(dest))) throw new PlatformBackupError(`The folder ${dirname(dest)} does not exist.`);
  const partial = `${dest}.partial`;
  rmSync(partial, { force: true });
  const db = new DatabaseSync(source, { readOnly: true });
  try {
    db.prepare('VACUUM INTO ?').run(partial);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  } finally {
    db.close();
  }
  try {
    const copy = new DatabaseSync(partial, { readOnly: true });
    let verdict: unknown;
    try {
      verdict = (copy.prepare('PRAGMA integrity_check').get() as { integrity_check?: unknown }).integrity_check;
    } finally {
      copy.close();
    }
    if (verdict !== 'ok') throw new PlatformBackupError(`The copy failed its integrity check: ${String(verdict)}.`);
    // It holds every account and token hash: private like the database itself.
    chmodSync(partial, 0o600);
    const fd = openSync(partial, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(partial, dest);
    const dir = openSync(dirname(dest), 'r');
    try {
      fsyncSync(dir);
    } finally {
      closeSync(dir);
    }
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
  return { bytes: statSync(dest).size };
}
