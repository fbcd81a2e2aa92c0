import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CustomItem } from '@canopy/contract';
import { consolePath } from '../console/paths.ts';
import { errorMessage, type Logger } from '../log.ts';

/** Item names by id, from items.dat and the custom items. */
export interface ItemCatalog {
  readonly size: number;
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
 * Which items.dat to read: the --items-dat flag, else `<data-dir>/items.dat` (an operator's own
 * file), else the one @canopy/formats generates, else none. The console is read by collaborators,
 * so the name is relative to the data directory, the file name alone, or `items.dat (default)`.
 */
export function resolveItemsDat(flag: string | undefined, dataDir: string): ItemsDatSource | undefined {
  if (flag) return { path: flag, name: consolePath(dataDir, flag) };
  const own = join(dataDir, 'items.dat');
  if (existsSync(own)) return { path: own, name: 'items.dat' };
  try {
    const bundled = fileURLToPath(new URL('../assets/items.dat', import.meta.resolve('@canopy/formats')));
    return existsSync(bundled) ? { path: bundled, name: 'items.dat (default)' } : undefined;
  } catch {
    return undefined;
  }
}

/** Builds a catalog from id → name pairs. */
export function catalogOf(names: Map<number, string>): ItemCatalog {
  const byName = new Map<string, number[]>();
  for (const [id, name] of names) {
    const key = name.toLowerCase();
    byName.set(key, [...(byName.get(key) ?? []), id]);
  }
  return {
    size: names.size,
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
 * Reads item names; a missing or unreadable items.dat gives a catalog of custom items only (the
 * engine runs without one; commands then take item ids). The decoder is loaded here, after the
 * engine is ready, so that it costs nothing at start.
 */
export async function loadItemCatalog(
  source: ItemsDatSource | undefined,
  customItems: readonly CustomItem[],
  log: Logger,
): Promise<ItemCatalog> {
  const names = new Map<number, string>();
  if (source) {
    try {
      const { decodeItemsDat } = await import('@canopy/formats');
      const dat = decodeItemsDat(new Uint8Array(await readFile(source.path)));
      for (const item of dat.items) names.set(item.id, item.name);
      log.info(`Loaded ${dat.items.length} items (items.dat version ${dat.version}) from ${source.name}`);
    } catch (error) {
      // A file system error names the path it failed on; the console shows the short name instead.
      const why = errorMessage(error).replaceAll(source.path, source.name);
      log.error(`Could not read ${source.name}: ${why}; item names are unavailable`);
    }
  } else {
    log.warn('No items.dat found; item names are unavailable (commands take item ids)');
  }
  for (const item of customItems) names.set(item.ID, item.Name);
  return catalogOf(names);
}
