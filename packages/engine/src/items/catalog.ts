import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CustomItem } from '@canopy/contract/engine';
import type { ItemsDat } from '@canopy/formats';
import type { EngineOptions } from '../cli/args.ts';
import { consolePath } from '../console/paths.ts';
import { errorMessage, type Logger } from '../log.ts';
import { buildEffectiveItems, EFFECTIVE_ITEMS_DAT } from './effective-items.ts';
import { itemsDatByVersion } from './items-cache.ts';

/** The effective items.dat the engine built: its Proton hash (what a client compares) and counts. */
export interface ItemsDatInfo {
  hash: number;
  items: number;
  custom: number;
}

/** Item names by id, from items.dat and the custom items. */
export interface ItemCatalog {
  readonly size: number;
  /** Undefined when no effective items.dat could be built. */
  readonly itemsDat?: ItemsDatInfo;
  name(id: number): string | undefined;
  /** An item by id or by name (case-insensitive, exact); a list when the name is ambiguous. */
  find(query: string): { id: number; name: string } | { id: number; name: string }[] | undefined;
}

/** An items.dat to read: its path, and the name the console shows for it (never a host path). */
export interface ItemsDatSource {
  path: string;
  name: string;
}

/**
 * Which items.dat to read: `<data-dir>/items.dat` (the server's own), else the operator's by version
 * (items-cache.ts: cached or fetched), else the --items-dat flag, else the one @canopy/formats generates, else
 * none. The console is read by collaborators, so the name is relative to the data directory, the file name
 * alone, or `items.dat (default)`.
 */
export async function resolveItemsDat(
  options: Pick<EngineOptions, 'itemsDat' | 'itemsByVersion' | 'secret'>,
  dataDir: string,
  log: Logger,
): Promise<ItemsDatSource | undefined> {
  const own = join(dataDir, 'items.dat');
  if (existsSync(own)) return { path: own, name: 'items.dat' };
  if (options.itemsByVersion) {
    const fetched = await itemsDatByVersion(dataDir, { ...options.itemsByVersion, secret: options.secret }, log);
    if (fetched) return { path: fetched, name: consolePath(dataDir, fetched) };
  }
  if (options.itemsDat) return { path: options.itemsDat, name: consolePath(dataDir, options.itemsDat) };
  try {
    const bundled = fileURLToPath(new URL('../assets/items.dat', import.meta.resolve('@canopy/formats')));
    return existsSync(bundled) ? { path: bundled, name: 'items.dat (default)' } : undefined;
  } catch {
    return undefined;
  }
}

/** Builds a catalog from id → name pairs. */
export function catalogOf(names: Map<number, string>, itemsDat?: ItemsDatInfo): ItemCatalog {
  const byName = new Map<string, number[]>();
  for (const [id, name] of names) {
    const key = name.toLowerCase();
    byName.set(key, [...(byName.get(key) ?? []), id]);
  }
  return {
    size: names.size,
    itemsDat,
    name: (id) => names.get(id),
    find(query) {
      const q = query.trim();
      if (/^\d+$/.test(q)) return { id: Number(q), name: names.get(Number(q)) ?? `item ${q}` };
      const ids = byName.get(q.toLowerCase()) ?? [];
      const found = ids.map((id) => ({ id, name: names.get(id) ?? '' }));
      return found.length === 1 ? found[0] : found.length ? found : undefined;
    },
  };
}

/**
 * Reads the base items.dat, builds and writes the effective one with the custom items (effective-items.ts)
 * and returns its catalog. A missing or unreadable base gives a catalog of custom items only (the engine
 * runs without one; commands then take item ids). The formats package is loaded here, after the engine
 * is ready, so that it costs nothing at start.
 */
export async function loadItemCatalog(
  source: ItemsDatSource | undefined,
  customItems: readonly CustomItem[],
  log: Logger,
  dataDir: string,
): Promise<ItemCatalog> {
  let base: ItemsDat | undefined;
  if (source) {
    try {
      const { decodeItemsDat } = await import('@canopy/formats');
      base = decodeItemsDat(new Uint8Array(await readFile(source.path)));
      log.info(`Loaded ${base.items.length} items (items.dat version ${base.version}) from ${source.name}`);
    } catch (error) {
      // A file system error names the path it failed on; the console shows the short name instead.
      const why = errorMessage(error).replaceAll(source.path, source.name);
      log.error(`Could not read ${source.name}: ${why}; only custom items are known`);
    }
  } else {
    log.warn('No items.dat found; item names are unavailable (commands take item ids)');
  }
  const names = new Map<number, string>();
  for (const item of base?.items ?? []) names.set(item.id, item.name);
  for (const item of customItems) names.set(item.ID, item.Name);
  if (!base && customItems.length === 0) return catalogOf(names);
  try {
    const built = await buildEffectiveItems(dataDir, base, customItems);
    for (const file of built.missingTextures) log.warn(`Custom item texture ${file} is missing from the cache`);
    log.info(
      `Built ${EFFECTIVE_ITEMS_DAT}: ${built.items.length} items (${customItems.length} custom), ` +
        `${built.bytes} bytes, hash ${built.hash}`,
    );
    return catalogOf(names, { hash: built.hash, items: built.items.length, custom: customItems.length });
  } catch (error) {
    log.error(`Could not build ${EFFECTIVE_ITEMS_DAT}: ${errorMessage(error)}`);
    return catalogOf(names);
  }
}
