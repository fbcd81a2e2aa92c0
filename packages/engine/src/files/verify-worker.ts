// Runs in a worker thread (verify.ts): an integrity check of a 100 MB database takes the better part of a second,
// which must not hold the engine's event loop (its players) meanwhile. Importing it elsewhere does nothing, so
// that --warm-compile-cache can load it into the compile cache.
import { closeSync, openSync, readSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';

/** What a check found: the file's length and sha256 (hex), or why it is not a sound SQLite database. */
export type Verdict = { ok: true; bytes: number; sha256: string } | { ok: false; detail: string };

/** Every SQLite database file starts with these 16 bytes (an empty file would pass integrity_check). */
const MAGIC = 'SQLite format 3\0';

function measure(path: string): { bytes: number; sha256: string; head: string } {
  const hash = process.getBuiltinModule('node:crypto').createHash('sha256');
  const fd = openSync(path, 'r');
  const chunk = Buffer.allocUnsafe(1024 * 1024);
  let bytes = 0;
  let head = '';
  try {
    for (let n = readSync(fd, chunk); n > 0; n = readSync(fd, chunk)) {
      if (bytes === 0) head = chunk.subarray(0, Math.min(n, MAGIC.length)).toString('latin1');
      hash.update(chunk.subarray(0, n));
      bytes += n;
    }
  } finally {
    closeSync(fd);
  }
  return { bytes, sha256: hash.digest('hex'), head };
}

/** Checks a database file that nothing writes: its header, `PRAGMA integrity_check`, then its sha256. */
export function verifyDatabaseFile(path: string): Verdict {
  const { bytes, sha256, head } = measure(path);
  if (head !== MAGIC) return { ok: false, detail: 'not an SQLite database' };
  let db: DatabaseSync;
  try {
    // Read-only and immutable: the check neither writes a journal beside the file nor changes a byte of it.
    db = new DatabaseSync(`file:${encodeURI(path)}?immutable=1`, { readOnly: true });
  } catch (error) {
    return { ok: false, detail: (error as Error).message };
  }
  try {
    const rows = db.prepare('PRAGMA integrity_check').all() as { integrity_check: string }[];
    const verdict = rows.map((r) => r.integrity_check).join('; ');
    return verdict === 'ok' ? { ok: true, bytes, sha256 } : { ok: false, detail: verdict };
  } catch (error) {
    return { ok: false, detail: (error as Error).message };
  } finally {
    db.close();
  }
}

const { isMainThread, parentPort, workerData } = process.getBuiltinModule('node:worker_threads');
if (!isMainThread && parentPort) {
  let verdict: Verdict;
  try {
    verdict = verifyDatabaseFile((workerData as { path: string }).path);
  } catch (error) {
    verdict = { ok: false, detail: (error as Error).message };
  }
  parentPort.postMessage(verdict);
}
