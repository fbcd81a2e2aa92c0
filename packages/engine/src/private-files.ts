import { chmodSync, closeSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';

// The data directory holds every player's data; only the user running the engine may read it.
// process.umask(0o077) in main.ts covers new files; these also narrow what an older install left wider.

/** Mode of every file the engine keeps in its data directory. */
export const PRIVATE_FILE = 0o600;
/** Mode of the data directory (and the api's directories, which use these too). */
export const PRIVATE_DIR = 0o700;

/** Sets a path's permission bits to `mode` unless they already are; a missing path is left alone. */
export function narrowMode(path: string, mode: number): void {
  let current: number;
  try {
    current = statSync(path).mode & 0o777;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (current !== mode) chmodSync(path, mode);
}

/** Creates a directory (and its parents) if missing and makes it 0700. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR });
  narrowMode(dir, PRIVATE_DIR);
}

/** Creates an empty file if missing and makes it 0600 (SQLite gives its -wal the database file's mode). */
export function ensurePrivateFile(file: string): void {
  closeSync(openSync(file, 'a', PRIVATE_FILE));
  narrowMode(file, PRIVATE_FILE);
}

/**
 * Writes a file whole or not at all, readable by this user only: beside it first (`.<pid>.tmp`, made anew so a
 * leftover cannot lend it a wider mode), then renamed over it. Readers never see half a file.
 */
export function writePrivateFileAtomic(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  rmSync(tmp, { force: true });
  writeFileSync(tmp, text, { mode: PRIVATE_FILE });
  renameSync(tmp, file);
}
