// Config files that pages read often (the profile's autofarm delay, the Item Database's custom items) kept in memory
// per server, so that those reads do not start a files-only engine for an offline server each time (ADR 0041). Only
// the api writes config files (the engine never does), and every write and read through config-files.ts notes what
// it wrote or saw here, so an entry is the file as this api last knew it.
import type { AppContext } from '../context.ts';
import { serversRepo } from '../servers/servers.repo.ts';

/** Files kept, across all servers; the least recently used goes first. */
const KEPT = 2000;
/** A file larger than this is not kept (read through each time). */
const MAX_KEPT_BYTES = 256 * 1024;

interface Cache {
  files: Map<string, Buffer | undefined>;
  /** Bumped by every note of a key, so that a read begun before a write does not store what it read after it. */
  generation: Map<string, number>;
}

// One cache per api (tests run several in one process): keyed by its server registry.
const caches = new WeakMap<object, Cache>();

function cacheOf(ctx: AppContext): Cache {
  let cache = caches.get(ctx.servers);
  if (!cache) {
    cache = { files: new Map(), generation: new Map() };
    caches.set(ctx.servers, cache);
  }
  return cache;
}

const keyOf = (serverId: string, name: string) => `${serverId}\0${name}`;

function store(cache: Cache, key: string, bytes: Buffer | undefined) {
  cache.files.delete(key);
  if (bytes && bytes.length > MAX_KEPT_BYTES) return;
  cache.files.set(key, bytes);
  if (cache.files.size > KEPT) {
    // Its generation stays (a number per file a server ever had): a read under way must still see a write.
    cache.files.delete(cache.files.keys().next().value as string);
  }
}

/** Records a file's content as the engine now has it (written, read, or missing: undefined). */
export function noteWritten(ctx: AppContext, serverId: string, name: string, bytes: Buffer | undefined): void {
  const cache = cacheOf(ctx);
  const key = keyOf(serverId, name);
  cache.generation.set(key, (cache.generation.get(key) ?? 0) + 1);
  store(cache, key, bytes);
}

/** The file as this api last knew it, or null when it does not know it. */
export function knownFile(ctx: AppContext, serverId: string, name: string): { bytes: Buffer | undefined } | null {
  const cache = cacheOf(ctx);
  const key = keyOf(serverId, name);
  return cache.files.has(key) ? { bytes: cache.files.get(key) } : null;
}

/**
 * A config file of the server (undefined when missing, or when there is no such server): from memory when known,
 * else read through its engine.
 */
export async function cachedServerFile(ctx: AppContext, serverId: string, name: string): Promise<Buffer | undefined> {
  const cache = cacheOf(ctx);
  const key = keyOf(serverId, name);
  if (cache.files.has(key)) {
    const bytes = cache.files.get(key);
    store(cache, key, bytes); // most recently used
    return bytes;
  }
  const before = cache.generation.get(key) ?? 0;
  const server = await serversRepo.findById(ctx.db, serverId);
  if (!server) return undefined;
  const bytes = await ctx.servers.runtime.files(ctx.servers.spec(server)).read(name);
  if ((cache.generation.get(key) ?? 0) === before) store(cache, key, bytes);
  return bytes;
}
