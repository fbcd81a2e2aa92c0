import type { FileHandle } from 'node:fs/promises';
import { open, rm, stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { backupDatabase } from '../backup.ts';
import { EngineError } from '../errors.ts';
import type { FilesContext } from './context.ts';
import { DATABASE_NAME } from './names.ts';
import { SNAPSHOT_PREFIX } from './sweep.ts';
import { databaseTurn } from './turn.ts';
import { verifyDatabase } from './verify.ts';

/** A verified copy of the database, open for reading; its file is already unlinked (nothing to clean up). */
interface Snapshot {
  handle: FileHandle;
  bytes: number;
  sha256: string;
}

const noDatabase = () => new EngineError(404, 'The server has no database yet.', 'no_database');

/** The online backup of the database into `target`: the game's own connection, or one opened for this copy. */
async function copyInto(ctx: FilesContext, target: string): Promise<void> {
  if (ctx.db) {
    // The worlds the game holds in memory go to the database first, so the copy has every edit made so far.
    ctx.network?.save();
    await backupDatabase(ctx.db, target);
    return;
  }
  const live = join(ctx.options.dataDir, DATABASE_NAME);
  await databaseTurn(async () => {
    if (!(await stat(live).catch(() => undefined))?.size) throw noDatabase();
    // Read-only: a files-only engine never changes the database it copies (a -wal left by a killed engine is
    // read, not folded). SQLite makes a -shm for it, removed once closed: nothing else has the file open.
    const source = new DatabaseSync(live, { readOnly: true, timeout: 250 });
    try {
      await backupDatabase(source, target);
    } finally {
      source.close();
      await rm(`${live}-shm`, { force: true });
    }
  });
}

/**
 * A consistent, self-contained copy of the database (journal mode DELETE), checked (integrity_check) and measured
 * (length, sha256) before anything is sent. It is made in the data directory and unlinked once open, so that it
 * goes when the answer ends or the client goes away, and even when the engine is killed meanwhile.
 */
async function takeSnapshot(ctx: FilesContext): Promise<Snapshot> {
  const hex = process.getBuiltinModule('node:crypto').randomBytes(6).toString('hex');
  const target = join(ctx.options.dataDir, `${SNAPSHOT_PREFIX}${hex}`);
  try {
    await copyInto(ctx, target);
    const verdict = await verifyDatabase(target);
    if (!verdict.ok)
      throw new EngineError(500, `The database copy failed its check (${verdict.detail}).`, 'database_damaged');
    const handle = await open(target, 'r');
    const { size } = await handle.stat();
    if (size !== verdict.bytes) {
      await handle.close();
      throw new Error(`the database copy changed while it was checked (${verdict.bytes} then ${size} bytes)`);
    }
    return { handle, bytes: verdict.bytes, sha256: verdict.sha256 };
  } finally {
    await rm(target, { force: true });
  }
}

/** GET /snapshot: streams the checked copy with its content-length and x-canopy-sha256 (docs/engine-files-api.md). */
export async function sendSnapshot(ctx: FilesContext, res: ServerResponse): Promise<void> {
  const started = performance.now();
  const snapshot = await takeSnapshot(ctx);
  const stream = snapshot.handle.createReadStream();
  res.writeHead(200, {
    'content-type': 'application/octet-stream',
    'content-length': snapshot.bytes,
    'x-canopy-sha256': snapshot.sha256,
  });
  stream.on('error', (error) => res.destroy(error));
  res.on('close', () => stream.destroy());
  stream.pipe(res);
  ctx.log.info(
    `Database snapshot taken (${snapshot.bytes} bytes, ${Math.round(performance.now() - started)} ms), sending it`,
  );
}
