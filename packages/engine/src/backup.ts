import { existsSync, linkSync, rmSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname, isAbsolute } from 'node:path';
import { backup, DatabaseSync } from 'node:sqlite';
import { badRequest, conflict } from './errors.ts';

/**
 * Writes a consistent snapshot of the live database to `target` while the engine keeps running.
 * SQLite's online backup copies page by page off the event loop; writes made meanwhile through the
 * same connection are carried into the copy, so it is the database as of the moment it finishes.
 * The copy is made beside the target and linked into place, so `target` never holds a partial file,
 * and it is switched out of WAL mode so that it is one self-contained file.
 */
export async function backupDatabase(db: DatabaseSync, target: string): Promise<{ path: string; bytes: number }> {
  if (!isAbsolute(target)) throw badRequest(`path must be absolute (got "${target}").`);
  if (existsSync(target)) throw conflict(`${target} already exists; the engine never overwrites a file.`);
  if (!existsSync(dirname(target))) throw badRequest(`The directory ${dirname(target)} does not exist.`);
  const partial = `${target}.partial-${process.pid}-${Date.now()}`;
  try {
    await copyWithRetries(db, partial);
    const copy = new DatabaseSync(partial);
    copy.exec('PRAGMA journal_mode = DELETE');
    copy.close();
    try {
      linkSync(partial, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST')
        throw conflict(`${target} already exists; the engine never overwrites a file.`);
      throw error;
    }
    return { path: target, bytes: statSync(target).size };
  } finally {
    rmSync(partial, { force: true });
    rmSync(`${partial}-wal`, { force: true });
    rmSync(`${partial}-shm`, { force: true });
  }
}

/** Attempts of a copy that a game write interrupted (see copyWithRetries). */
const COPY_ATTEMPTS = 5;

/**
 * node:sqlite runs each backup step on the thread pool while the game keeps writing through the same
 * connection; now and then a step meets the connection busy and the whole backup fails with SQLite's
 * 'not an error' (a busy or locked step reported as an error). The copy is then started again from
 * scratch: a fresh copy is as consistent as the first would have been.
 */
async function copyWithRetries(db: DatabaseSync, partial: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    // 100 pages (400 KB) per step: the event loop, and so the game, runs between steps.
    const flusher = flushWhileGrowing(partial);
    try {
      await backup(db, partial, { rate: 100, progress: flusher.progress });
      return;
    } catch (error) {
      const transient = /not an error|busy|locked/i.test((error as Error).message);
      if (!transient || attempt >= COPY_ATTEMPTS) throw error;
    } finally {
      await flusher.idle();
    }
    rmSync(partial, { force: true });
    rmSync(`${partial}-journal`, { force: true });
  }
}

/** Pages written between two flushes of the copy (2 MB of 4 KB pages). */
const FLUSH_EVERY_PAGES = 500;

/**
 * The backup's last step commits the copy with an fsync while it holds the live database's connection, so
 * the game's next query waits for that fsync: with 100 MB still dirty in the page cache that was a stall
 * of about 200 ms (bench/backup.ts). Flushing the copy as it grows, from the thread pool and without that
 * connection, leaves the last fsync little to do.
 */
function flushWhileGrowing(path: string) {
  let flushing: Promise<void> | null = null;
  let previous: number | null = null;
  let since = 0;
  const flush = async () => {
    const handle = await open(path, 'r+');
    try {
      await handle.datasync();
    } finally {
      await handle.close();
    }
  };
  return {
    progress: ({ remainingPages }: { totalPages: number; remainingPages: number }) => {
      since += previous === null ? 0 : Math.max(0, previous - remainingPages);
      previous = remainingPages;
      if (since < FLUSH_EVERY_PAGES || flushing) return;
      since = 0;
      flushing = flush()
        .catch(() => {}) // only an optimisation: the commit's own fsync is what makes the copy durable
        .finally(() => {
          flushing = null;
        });
    },
    idle: async () => {
      await flushing;
    },
  };
}
