import { rename, rm, stat } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { whole } from '../control/server.ts';
import { badRequest, EngineError } from '../errors.ts';
import { errorMessage } from '../log.ts';
import { fsyncDir, writeThenCommit } from './atomic.ts';
import type { FilesContext } from './context.ts';
import { DATABASE_NAME } from './names.ts';
import { WAL_ASIDE } from './sweep.ts';
import { databaseTurn } from './turn.ts';
import { verifyDatabase } from './verify.ts';

const damaged = (why: string) =>
  new EngineError(422, `The database sent is not the backup named: ${why}. Nothing was changed.`, 'backup_damaged');

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

/** `?sha256={hex}&bytes={n}`: what the body must be. */
function expected(query: Record<string, string>): { sha256: string; bytes: number } {
  const { sha256, bytes } = query;
  if (!sha256 || !/^[0-9a-fA-F]{64}$/.test(sha256)) throw badRequest('sha256 must be 64 hex digits.');
  if (!bytes || !/^\d{1,15}$/.test(bytes)) throw badRequest('bytes must be a non-negative integer.');
  return { sha256: sha256.toLowerCase(), bytes: Number(bytes) };
}

/** The body, refused as not the backup named as soon as it proves longer than named. */
async function* body(req: IncomingMessage, limit: number): AsyncGenerator<Buffer> {
  let size = 0;
  for await (const chunk of whole(req)) {
    size += chunk.length;
    if (size > limit) throw damaged(`more than ${limit} bytes sent`);
    yield chunk;
  }
}

/**
 * No -wal of the live database may meet the restored file (SQLite would apply it to it). It is folded into the
 * live file, which is left in rollback-journal mode without sidecars, so that a failed swap leaves the old database
 * whole. A live database too damaged to open (often the reason to restore) cannot be folded: its -wal is set aside
 * (returned), put back when the swap fails and removed once it is done; the start-up sweep settles one a kill left.
 */
async function clearWal(ctx: FilesContext, live: string): Promise<string | null> {
  const sidecars = async () => {
    for (const extra of ['-wal', '-shm', '-journal']) await rm(`${live}${extra}`, { force: true });
  };
  try {
    if (await exists(live)) {
      const db = new DatabaseSync(live, { timeout: 250 });
      try {
        db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
        db.exec('PRAGMA journal_mode = DELETE');
      } finally {
        db.close();
      }
    }
    await sidecars();
    return null;
  } catch (error) {
    ctx.log.warn(`The database being replaced could not be opened (${errorMessage(error)}); setting its WAL aside`);
    const aside = join(ctx.options.dataDir, WAL_ASIDE);
    if (await exists(`${live}-wal`)) await rename(`${live}-wal`, aside);
    await sidecars();
    await fsyncDir(ctx.options.dataDir);
    return (await exists(aside)) ? aside : null;
  }
}

/**
 * PUT /restore (files-only mode): the body is staged beside engine.db, checked (length, sha256, header and
 * integrity_check) and only then swapped in: WAL cleared, renamed over engine.db, directory fsynced. Any check
 * that fails is a 422 `backup_damaged` with the live database untouched.
 */
export async function restoreDatabase(
  ctx: FilesContext,
  req: IncomingMessage,
  query: Record<string, string>,
): Promise<{ bytes: number }> {
  if (!ctx.options.filesOnly)
    throw new EngineError(
      409,
      'The server is running; a database is restored only while it is offline.',
      'engine_running',
    );
  const want = expected(query);
  const { dataDir } = ctx.options;
  const live = join(dataDir, DATABASE_NAME);
  return writeThenCommit(live, body(req, want.bytes), async (staged, written) => {
    if (written.bytes !== want.bytes) throw damaged(`${written.bytes} bytes sent, not ${want.bytes}`);
    if (written.sha256 !== want.sha256) throw damaged(`its sha256 is ${written.sha256}`);
    const verdict = await verifyDatabase(staged);
    if (!verdict.ok) throw damaged(verdict.detail);
    await databaseTurn(async () => {
      const aside = await clearWal(ctx, live);
      try {
        await rename(staged, live);
      } catch (error) {
        if (aside) await rename(aside, `${live}-wal`).catch(() => {});
        throw error;
      }
      await fsyncDir(dataDir);
      if (aside) await rm(aside, { force: true });
    });
    ctx.log.info(`Database restored (${written.bytes} bytes, sha256 ${written.sha256.slice(0, 12)})`);
    return { bytes: written.bytes };
  });
}
