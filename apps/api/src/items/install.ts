// Installing an operator's item database (scripts/items.ts): validate everything first, copy into a new
// version folder, then point `current` at it with one rename, so readers see the old or the new database,
// never a mix. Layout: item-database-dir.ts.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, symlink, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { baseTextureNamePattern, customTextureNamePattern } from '@canopy/contract';
import { decodeItemsDat } from '@canopy/formats';
import { decodeRttexFile } from '@canopy/formats/node';
import { CURRENT_LINK, installedVersion, VERSIONS_DIR } from './item-database-dir.ts';

/** Largest items.dat and texture accepted (a real items.dat is a few MB, a sheet a few MB). */
const MAX_FILE_BYTES = 256 * 1024 * 1024;

/** What an install (or a dry run) found. */
export interface ItemDatabaseReport {
  version: string;
  itemsDatVersion: number;
  items: number;
  textures: number;
  /** Textures items.dat names that the texture folder lacks (their items show no sprite). */
  missingTextures: string[];
}

/** A file the operator gave that cannot be used; the message names the file and the problem. */
export class InvalidItemDatabase extends Error {}

async function readBounded(path: string, what: string): Promise<Buffer> {
  const info = await stat(path).catch(() => null);
  if (!info?.isFile()) throw new InvalidItemDatabase(`${what}: not a file (${path})`);
  if (info.size > MAX_FILE_BYTES) throw new InvalidItemDatabase(`${what}: larger than ${MAX_FILE_BYTES} bytes`);
  return readFile(path);
}

/** Decodes items.dat and every *.rttex of the texture folder; throws InvalidItemDatabase at the first bad one. */
export async function validateItemDatabase(itemsDatPath: string, textureDir: string) {
  const dat = await readBounded(itemsDatPath, 'items.dat');
  let decoded: ReturnType<typeof decodeItemsDat>;
  try {
    decoded = decodeItemsDat(new Uint8Array(dat));
  } catch (error) {
    const message = (error as Error).message;
    throw new InvalidItemDatabase(message.startsWith('items.dat') ? message : `items.dat: ${message}`);
  }
  const names = await readdir(textureDir).catch(() => {
    throw new InvalidItemDatabase(`texture folder: cannot read ${textureDir}`);
  });
  const textures = new Map<string, Buffer>();
  for (const name of names.filter((n) => n.endsWith('.rttex')).sort()) {
    if (!baseTextureNamePattern.test(name) || customTextureNamePattern.test(name))
      throw new InvalidItemDatabase(`${name}: texture names are letters, digits, '_', '-' and '.' (not custom_*)`);
    const bytes = await readBounded(join(textureDir, name), name);
    try {
      decodeRttexFile(new Uint8Array(bytes));
    } catch (error) {
      throw new InvalidItemDatabase(`${name}: ${(error as Error).message}`);
    }
    textures.set(name, bytes);
  }
  const wanted = new Set(decoded.items.map((i) => i.texture).filter(Boolean));
  const missingTextures = [...wanted].filter((t) => !textures.has(t)).sort();
  const version = `${new Date().toISOString().replace(/\D/g, '').slice(0, 17)}-${createHash('sha256').update(dat).digest('hex').slice(0, 8)}`;
  const report: ItemDatabaseReport = {
    version,
    itemsDatVersion: decoded.version,
    items: decoded.items.length,
    textures: textures.size,
    missingTextures,
  };
  return { report, dat, textures };
}

/** Validates, copies and switches to the given items.dat and textures; keeps the previous version for engines still reading it. */
export async function installItemDatabase(
  itemsDir: string,
  itemsDatPath: string,
  textureDir: string,
): Promise<ItemDatabaseReport> {
  const { report, dat, textures } = await validateItemDatabase(itemsDatPath, textureDir);
  const versions = join(itemsDir, VERSIONS_DIR);
  const staging = join(versions, `.staging-${randomBytes(6).toString('hex')}`);
  await mkdir(join(staging, 'cache'), { recursive: true });
  try {
    await writeFile(join(staging, 'items.dat'), dat);
    for (const [name, bytes] of textures) await writeFile(join(staging, 'cache', name), bytes);
    await rename(staging, join(versions, report.version));
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
  await pointCurrentAt(itemsDir, report.version);
  await prune(itemsDir);
  return report;
}

/** Makes `current` name a version: a new link renamed over the old one (atomic on POSIX). */
async function pointCurrentAt(itemsDir: string, version: string) {
  const link = join(itemsDir, `.${CURRENT_LINK}-${randomBytes(6).toString('hex')}`);
  await symlink(join(VERSIONS_DIR, version), link);
  await rename(link, join(itemsDir, CURRENT_LINK));
}

/** Removes versions other than the current one and the one before it (by name, which sorts by time). */
async function prune(itemsDir: string) {
  const current = installedVersion(itemsDir);
  const all = (await readdir(join(itemsDir, VERSIONS_DIR))).filter((n) => !n.startsWith('.')).sort();
  const keep = new Set([current, all.filter((n) => n !== current).at(-1)]);
  for (const name of all)
    if (!keep.has(name)) await rm(join(itemsDir, VERSIONS_DIR, name), { recursive: true, force: true });
}

/** Goes back to the bundled database (installed versions stay on disk until the next install prunes them). */
export async function useBundledItemDatabase(itemsDir: string): Promise<void> {
  await unlink(join(itemsDir, CURRENT_LINK)).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
}
