import { createReadStream } from 'node:fs';
import { readdir, rm, stat, utimes } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { writeFileAtomic } from '../files/atomic.ts';
import { errorMessage, type Logger } from '../log.ts';

/** Where fetched item databases are kept: `<data-dir>/items-cache/<version>.dat` (docs/engine-files-api.md). */
export const ITEMS_CACHE_DIR = 'items-cache';
/** Files kept in the cache: the one in use and the one before it (a rollback of the operator's upload). */
const KEEP = 2;
/** The api refuses larger item databases (apps/api/src/items/install.ts). */
const MAX_BYTES = 256 * 1024 * 1024;
/** A fetch whose connection stays silent this long is given up. */
const IDLE_TIMEOUT_MS = 30_000;

/** The operator's item database by version: where to fetch it and who asks (the api checks both). */
export interface ItemsByVersion {
  url: string;
  /** sha256 (hex) of the file's bytes. */
  version: string;
  serverId: string;
  secret: string;
}

async function sha256Of(path: string): Promise<string> {
  const hash = process.getBuiltinModule('node:crypto').createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** GET with node:http(s): fetch() would load undici, about 14 MB that an engine would then keep for its life. */
function get(url: URL, headers: Record<string, string>): Promise<IncomingMessage> {
  const client = process.getBuiltinModule(url.protocol === 'https:' ? 'node:https' : 'node:http');
  return new Promise((resolve, reject) => {
    const req = client.get(url, { headers }, resolve);
    req.setTimeout(IDLE_TIMEOUT_MS, () => req.destroy(new Error(`no answer for ${IDLE_TIMEOUT_MS / 1000} s`)));
    req.on('error', reject);
  });
}

async function* bounded(res: IncomingMessage): AsyncGenerator<Buffer> {
  let size = 0;
  for await (const chunk of res as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BYTES) throw new Error(`larger than ${MAX_BYTES} bytes`);
    yield chunk;
  }
}

async function download(source: ItemsByVersion, file: string): Promise<void> {
  const res = await get(new URL(source.url), {
    authorization: `Bearer ${source.secret}`,
    'x-canopy-server': source.serverId,
  });
  if (res.statusCode !== 200) {
    res.resume();
    throw new Error(`the api answered ${res.statusCode}`);
  }
  await writeFileAtomic(file, bounded(res), ({ sha256 }) => {
    if (sha256 !== source.version) throw new Error(`its sha256 is ${sha256}, not the version asked for`);
  });
}

/** Removes all but the newest KEEP files of the cache (by time of last use); `current` always stays. */
async function prune(dir: string, current: string): Promise<void> {
  const files = (await readdir(dir)).filter((n) => /^[0-9a-f]{64}\.dat$/.test(n)).map((n) => join(dir, n));
  const used = await Promise.all(
    files.map(async (f) => ({ f, at: f === current ? Infinity : (await stat(f)).mtimeMs })),
  );
  used.sort((a, b) => b.at - a.at);
  for (const { f } of used.slice(KEEP)) await rm(f, { force: true });
}

/**
 * The path of the item database `source.version`: the cached copy when its hash is that version, else fetched
 * (bearer secret, x-canopy-server), checked and written whole into the cache. Undefined when it cannot be had:
 * a WARN line says why, and the caller falls back to the next items.dat.
 */
export async function itemsDatByVersion(
  dataDir: string,
  source: ItemsByVersion,
  log: Logger,
): Promise<string | undefined> {
  const dir = join(dataDir, ITEMS_CACHE_DIR);
  const file = join(dir, `${source.version}.dat`);
  const short = source.version.slice(0, 12);
  try {
    const cached = await sha256Of(file).catch(() => undefined);
    if (cached === source.version) {
      const now = new Date();
      await utimes(file, now, now); // the time of last use, which pruning goes by
    } else {
      await download(source, file);
      log.info(`Fetched the item database ${short}`);
    }
    await prune(dir, file).catch(() => {}); // only tidying: a failure leaves one file too many
    return file;
  } catch (error) {
    // A system error by its code alone (ECONNREFUSED): its message names the api's address, not the console's business.
    const why = (error as NodeJS.ErrnoException).code ?? errorMessage(error);
    log.warn(`Could not fetch the item database ${short}: ${why}; using the fallback items.dat`);
    return undefined;
  }
}
