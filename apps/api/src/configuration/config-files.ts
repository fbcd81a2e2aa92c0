import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { hostingMessages, serverPageMessages as p, versionedWriteCodes } from '@canopy/contract';
import type { z } from 'zod';
import type { ServerAccess } from '../access/server-access.ts';
import type { AppContext } from '../context.ts';
import { AppError, conflict, notFound } from '../errors.ts';
import { assertStorageForWrite } from '../servers/storage-quota.ts';

/**
 * The config files of a hosted server live in its engine's data directory (names in the contract's
 * engineConfigFiles). The api reads and writes them whether the engine runs or not: a running engine
 * re-reads them on POST /reload or at its next start, and never writes them while it runs.
 */

/** The path of one config file (or texture) of the server. */
export function configPath(ctx: AppContext, access: ServerAccess, name: string): string {
  return join(ctx.servers.runtime.dataDir(access.server.id), name);
}

/**
 * Reads and validates a config file; missing gives `fallback`. A file its owner broke by hand is not
 * an api failure: the caller gets the fallback too, as the engine does (it logs the problem).
 */
export async function readConfigFile<S extends z.ZodType>(
  ctx: AppContext,
  access: ServerAccess,
  name: string,
  schema: S,
  fallback: () => z.infer<S>,
): Promise<z.infer<S>> {
  return (await readVersionedConfigFile(ctx, access, name, schema, fallback)).value;
}

/**
 * The version of a config file's content (ADR 0035): a hash of its bytes, of none when it is missing. A whole-file
 * save names the version it read and is refused when the file changed since (assertConfigVersion).
 */
export const contentVersion = (bytes: Uint8Array | undefined) =>
  createHash('sha256')
    .update(bytes ?? new Uint8Array())
    .digest('hex')
    .slice(0, 32);

async function readBytes(ctx: AppContext, access: ServerAccess, name: string): Promise<Buffer | undefined> {
  try {
    return await readFile(configPath(ctx, access, name));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** readConfigFile, with the version of what was read (for a GET to answer as its ETag). */
export async function readVersionedConfigFile<S extends z.ZodType>(
  ctx: AppContext,
  access: ServerAccess,
  name: string,
  schema: S,
  fallback: () => z.infer<S>,
): Promise<{ value: z.infer<S>; version: string }> {
  const bytes = await readBytes(ctx, access, name);
  const version = contentVersion(bytes);
  if (!bytes) return { value: fallback(), version };
  try {
    const parsed = schema.safeParse(JSON.parse(bytes.toString('utf8')));
    return { value: parsed.success ? parsed.data : fallback(), version };
  } catch {
    return { value: fallback(), version };
  }
}

/**
 * Refuses (409, `changed`: the page's text) a whole-file save that names the version it read when the file has
 * changed since; resolves to the version stored now (a save of equal content changes nothing, apply-change.ts). One that names none writes as before: the spec's pages build these files from their own state
 * and send no version, and only other panel users (never the game) write them (ADR 0035). Call it inside the
 * server's turn (serialised), so that the check and the write after it are one step for every writer of the files.
 */
export async function assertConfigVersion(
  ctx: AppContext,
  access: ServerAccess,
  name: string,
  expected: string | undefined,
  changed: string,
): Promise<string> {
  const current = contentVersion(await readBytes(ctx, access, name));
  if (expected !== undefined && current !== expected) throw conflict(changed, versionedWriteCodes.conflict);
  return current;
}

/** Configuration changes only while the server is ONLINE or OFFLINE (server-management document, section 4). */
export function assertConfigurable(ctx: AppContext, access: ServerAccess): void {
  const { status } = ctx.servers.runtime.state(access.server.id);
  if (status === 'STARTING' || status === 'RESTARTING') throw conflict(p.serverStarting, 'server_busy');
  if (status === 'STOPPING') throw conflict(p.serverStopping, 'server_busy');
  if (status !== 'ONLINE' && status !== 'OFFLINE') throw conflict(p.consoleUnknown, 'server_busy');
}

// One write at a time per server: two saves at once must not interleave their read-modify-write.
const turns = new Map<string, Promise<unknown>>();

/** Runs `fn` after the server's earlier config writes have finished. */
export function serialised<T>(serverId: string, fn: () => Promise<T>): Promise<T> {
  const before = turns.get(serverId) ?? Promise.resolve();
  const run = before.catch(() => {}).then(fn);
  const tail = run.catch(() => {});
  turns.set(serverId, tail);
  void tail.then(() => {
    if (turns.get(serverId) === tail) turns.delete(serverId);
  });
  return run;
}

/**
 * Writes `bytes` to a file of the server whole or not at all: a temporary file beside it, flushed to
 * disk, then renamed over it. A killed api or a full disk leaves the old file as it was. The write
 * counts toward the owner's storage limit and is refused (409) when it would pass it.
 */
export async function writeServerFile(
  ctx: AppContext,
  access: ServerAccess,
  name: string,
  bytes: Uint8Array,
): Promise<void> {
  await assertStorageForWrite(ctx, access.server, bytes.length, access.user);
  const file = configPath(ctx, access, name);
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    const handle = await open(tmp, 'wx', 0o600);
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, file);
  } catch (error) {
    await rm(tmp, { force: true });
    await assertNotRemoved(ctx, access); // the folder went away under the write (ENOENT): say why
    if ((error as NodeJS.ErrnoException).code === 'ENOSPC')
      throw new AppError(507, 'disk_full', hostingMessages.diskFull);
    throw error;
  }
  await assertNotRemoved(ctx, access);
}

/**
 * A write is not under the power lock, so the server may be deleted while it runs; the mkdir above would
 * then bring back a folder nobody owns, counted in no one's storage and never cleaned. The runtime marks a
 * server removed before it deletes its folder: a write that finished before that is deleted with the
 * folder, and one that finishes after it sees the mark here and removes what it brought back.
 */
async function assertNotRemoved(ctx: AppContext, access: ServerAccess): Promise<void> {
  if (!ctx.servers.runtime.isRemoved(access.server.id)) return;
  await rm(ctx.servers.runtime.dataDir(access.server.id), { recursive: true, force: true });
  throw notFound(p.noServer, 'no_server');
}

/** Writes a config file as JSON (see writeServerFile); resolves to the version of what it wrote. */
export async function writeConfigFile(
  ctx: AppContext,
  access: ServerAccess,
  name: string,
  value: unknown,
): Promise<string> {
  const bytes = Buffer.from(`${JSON.stringify(value, null, 2)}\n`);
  await writeServerFile(ctx, access, name, bytes);
  return contentVersion(bytes);
}

/** Tells a running engine to re-read its config files; an offline one reads them when it starts. */
export async function reloadIfOnline(ctx: AppContext, access: ServerAccess): Promise<void> {
  const control = ctx.servers.runtime.control(access.server.id);
  if (!control) return;
  try {
    await control.request('POST', '/reload');
  } catch (error) {
    // Saved already: the engine picks the file up at its next start; say so in the api's log only.
    ctx.log.warn({ err: error, server: access.server.name }, 'engine reload after a config change failed');
  }
}

/** What writeServerFile names its temporary files: `<name>.<12 hex>.tmp`. */
const UNFINISHED_WRITE = /\.[0-9a-f]{12}\.tmp$/;

/**
 * At api start: a write killed between its temporary file and its rename left that file behind (the
 * config file itself is the old one, whole). Removes them from every server's folder and its texture
 * cache, so they stop counting toward the owner's storage.
 */
export async function sweepUnfinishedWrites(serversRoot: string): Promise<void> {
  for (const id of await readdir(serversRoot).catch(() => [] as string[]))
    for (const dir of [join(serversRoot, id), join(serversRoot, id, 'cache')])
      for (const name of await readdir(dir).catch(() => [] as string[]))
        if (UNFINISHED_WRITE.test(name)) await rm(join(dir, name), { force: true });
}
