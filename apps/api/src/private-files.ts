import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  ensurePrivateDir,
  ensurePrivateFile,
  narrowMode,
  PRIVATE_DIR,
  PRIVATE_FILE,
  writePrivateFileAtomic,
} from '@canopy/engine/private-files';

// The data directory holds the platform database, the session key and every server's data; only the
// user running the api may read it. process.umask(0o077) in main.ts covers new files; these also
// narrow what an older install (or a test harness) left wider. The primitives are the engine's, which
// keeps its own data directory the same way.
export { ensurePrivateDir, PRIVATE_FILE, writePrivateFileAtomic };

/**
 * Makes the data directory 0700 and narrows what it already holds: the session key, the servers
 * folder and each server's directory (each engine narrows its own files when it starts).
 */
export function preparePrivateDataDir(dataDir: string): void {
  ensurePrivateDir(dataDir);
  narrowMode(join(dataDir, 'session-secret'), PRIVATE_FILE);
  narrowMode(join(dataDir, 'control-key'), PRIVATE_FILE);
  const servers = join(dataDir, 'servers');
  narrowMode(servers, PRIVATE_DIR);
  let entries: string[] = [];
  try {
    entries = readdirSync(servers);
  } catch {
    return;
  }
  for (const name of entries) {
    const path = join(servers, name);
    if (statSync(path).isDirectory()) narrowMode(path, PRIVATE_DIR);
  }
}

/** Prepares an SQLite file before it is opened: 0600, and its journal files too. */
export function preparePrivateSqliteFile(file: string): void {
  ensurePrivateFile(file);
  for (const extra of ['-wal', '-shm', '-journal']) narrowMode(`${file}${extra}`, PRIVATE_FILE);
}
