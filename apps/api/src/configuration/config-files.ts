import { createHash } from 'node:crypto';
import { serverPageMessages as p, versionedWriteCodes } from '@canopy/contract';
import type { z } from 'zod';
import type { ServerAccess } from '../access/server-access.ts';
import type { AppContext } from '../context.ts';
import { AppError, conflict, notFound } from '../errors.ts';
import type { ServerFiles } from '../runtime/server-files.ts';
import { measureServerData } from '../servers/server-usage.ts';
import { assertStorageForWrite } from '../servers/storage-quota.ts';
import { knownFile, noteWritten } from './file-cache.ts';

/**
 * The config files of a hosted server are its engine's (names in the contract's engineConfigFiles): the api reads
 * and writes them only through the engine's file API (runtime/server-files.ts), the running engine's or, while
 * the server is offline, a files-only engine's. A running engine re-reads them on POST /reload or at its next
 * start, and never writes them itself.
 */

/**
 * Runs `fn` on the server's files. A call refused or cut because the server is being deleted says so (404, as a
 * server that is gone), not that it was busy.
 */
export async function onServerFiles<T>(
  ctx: AppContext,
  access: ServerAccess,
  fn: (files: ServerFiles) => Promise<T>,
): Promise<T> {
  try {
    return await fn(ctx.servers.runtime.files(ctx.servers.spec(access.server)));
  } catch (error) {
    assertNotRemoved(ctx, access);
    throw error;
  }
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

/**
 * A file's bytes as the engine has them (undefined when missing); noted for the cached reads (file-cache.ts). While
 * no engine can answer (the server starts or stops: 409 server_busy) a page's read gets the file as this api last
 * knew it, if it does, so that reads work in any state; a write's read (`forWrite`) never does.
 */
export async function readServerFile(
  ctx: AppContext,
  access: ServerAccess,
  name: string,
  forWrite = false,
): Promise<Buffer | undefined> {
  try {
    const bytes = await onServerFiles(ctx, access, (files) => files.read(name));
    noteWritten(ctx, access.server.id, name, bytes);
    return bytes;
  } catch (error) {
    const known = !forWrite && error instanceof AppError && error.code === 'server_busy';
    const cached = known ? knownFile(ctx, access.server.id, name) : null;
    if (cached) return cached.bytes;
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
  const bytes = await readServerFile(ctx, access, name);
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
  const current = contentVersion(await readServerFile(ctx, access, name, true));
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

/**
 * Resolves once the server's config writes queued so far have finished (a power action waits for them: a save that
 * came before a start ends before the start takes the server, instead of being refused half way by it).
 */
export function writesSettled(serverId: string): Promise<void> {
  return (turns.get(serverId) ?? Promise.resolve()).then(() => {});
}

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
 * Writes `bytes` to a file of the server whole or not at all: the engine writes a temporary file, flushes it and
 * renames it over the old one, so a killed engine or a full disk (507) leaves the old file as it was. The write
 * counts toward the owner's storage limit and is refused (409) when it would pass it.
 */
export async function writeServerFile(
  ctx: AppContext,
  access: ServerAccess,
  name: string,
  bytes: Uint8Array,
): Promise<void> {
  await assertStorageForWrite(ctx, access.server, bytes.length, access.user);
  await onServerFiles(ctx, access, (files) => files.write(name, bytes));
  noteWritten(ctx, access.server.id, name, Buffer.from(bytes));
  assertNotRemoved(ctx, access);
  // Recorded after the write too (its engine is up now, one call): a start counts an offline server by this figure.
  await measureServerData(ctx, access.server).catch(() => {});
}

/**
 * A write is not under the power lock, so the server may be deleted while it runs. The runtime marks a server
 * removed before it deletes its files, after the calls in flight (its files-only engine's) have finished: a write
 * that finished before that is deleted with the rest, and one that comes after is refused. Either way the caller
 * learns that the server is gone.
 */
function assertNotRemoved(ctx: AppContext, access: ServerAccess): void {
  if (ctx.servers.runtime.isRemoved(access.server.id)) throw notFound(p.noServer, 'no_server');
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
