// Runs in a worker thread: an integrity check of a 100 MB database takes the better part of a second,
// which must not hold the api's event loop (every other tenant's requests) meanwhile.
import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';

export type VerifyOutcome =
  | { ok: true; sha256: string; bytes: number }
  | { ok: false; reason: 'integrity' | 'missing'; detail: string };

function sha256Of(path: string): { sha256: string; bytes: number } {
  const hash = createHash('sha256');
  const fd = openSync(path, 'r');
  const chunk = Buffer.allocUnsafe(1024 * 1024);
  let bytes = 0;
  try {
    for (;;) {
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      hash.update(chunk.subarray(0, n));
      bytes += n;
    }
  } finally {
    closeSync(fd);
  }
  return { sha256: hash.digest('hex'), bytes };
}

function verify(path: string, integrity: boolean): VerifyOutcome {
  if (!integrity) return { ok: true, ...sha256Of(path) };
  let db: DatabaseSync;
  try {
    // Read-only and immutable: the check neither writes a journal beside the file nor changes a byte of it.
    db = new DatabaseSync(`file:${encodeURI(path)}?immutable=1`, { readOnly: true, open: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { ok: false, reason: 'missing', detail: (error as Error).message };
    return { ok: false, reason: 'integrity', detail: (error as Error).message };
  }
  try {
    const rows = db.prepare('PRAGMA integrity_check').all() as { integrity_check: string }[];
    const verdict = rows.map((r) => r.integrity_check).join('; ');
    if (verdict !== 'ok') return { ok: false, reason: 'integrity', detail: verdict };
  } catch (error) {
    return { ok: false, reason: 'integrity', detail: (error as Error).message };
  } finally {
    db.close();
  }
  return { ok: true, ...sha256Of(path) };
}

const { path, integrity } = workerData as { path: string; integrity: boolean };
try {
  parentPort?.postMessage(verify(path, integrity));
} catch (error) {
  const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
  parentPort?.postMessage({ ok: false, reason: missing ? 'missing' : 'integrity', detail: (error as Error).message });
}
