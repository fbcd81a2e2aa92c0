// The item database the api serves: decoded once into memory, re-read only when an operator installs a new
// one, with each server's custom items laid over it (cached until custom-items.json changes).
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { type CustomItem, customItemsFileSchema, engineConfigFiles } from '@canopy/contract';
import { decodeItemsDat, toItemSummary } from '@canopy/formats';
import { catalogOf, type ItemCatalog, overlay } from './item-catalog.ts';
import { activeSource, bundledSource, type ItemDatabaseSource, installedVersion } from './item-database-dir.ts';

/** How often the `current` link is looked at for an operator's new install. */
const RECHECK_MS = 2000;
/** Servers whose merged catalog is kept; the oldest is dropped past this. */
const OVERLAYS_KEPT = 500;

interface Loaded {
  source: ItemDatabaseSource;
  catalog: ItemCatalog;
  /** File names of the texture set (the cache folder's *.rttex). */
  textures: ReadonlySet<string>;
}

async function load(source: ItemDatabaseSource): Promise<Loaded> {
  const dat = decodeItemsDat(new Uint8Array(await readFile(source.itemsDat)));
  const names = await readdir(source.cacheDir).catch(() => [] as string[]);
  return {
    source,
    catalog: catalogOf(dat.items.map(toItemSummary)),
    textures: new Set(names.filter((n) => n.endsWith('.rttex'))),
  };
}

/** Custom items of a server's data directory, or [] when it has none or the file does not parse. */
async function readCustomItems(path: string): Promise<CustomItem[]> {
  try {
    const parsed = customItemsFileSchema.safeParse(JSON.parse(await readFile(path, 'utf8')));
    return parsed.success ? parsed.data.items : [];
  } catch {
    return [];
  }
}

export class ItemDatabase {
  private loaded: Promise<Loaded> | null = null;
  private version: string | null = null;
  private checkedAt = Number.NEGATIVE_INFINITY;
  private readonly overlays = new Map<string, { key: string; catalog: ItemCatalog }>();

  /** null: always the bundled database. */
  private readonly itemsDir: string | null;
  private readonly now: () => number;

  constructor(itemsDir: string | null, now: () => number = Date.now) {
    this.itemsDir = itemsDir;
    this.now = now;
  }

  /** The base database (bundled or installed), loaded on first use and after an install. */
  base(): Promise<Loaded> {
    const now = this.now();
    if (!this.loaded || now - this.checkedAt >= RECHECK_MS) {
      this.checkedAt = now;
      const version = this.itemsDir === null ? null : installedVersion(this.itemsDir);
      if (version !== this.version || !this.loaded) {
        this.version = version;
        const dir = this.itemsDir;
        const next = Promise.resolve().then(() => load(dir === null ? bundledSource : activeSource(dir)));
        // A failed load is retried at the next check rather than remembered.
        next.catch(() => {
          if (this.loaded === next) this.loaded = null;
        });
        this.loaded = next;
        this.overlays.clear();
      }
    }
    return this.loaded as Promise<Loaded>;
  }

  /** The catalog a caller sees: the base, with their own server's custom items when they have a server. */
  async catalogFor(serverDataDir: string | null): Promise<ItemCatalog> {
    const base = await this.base();
    if (!serverDataDir) return base.catalog;
    const file = join(serverDataDir, engineConfigFiles.customItems);
    const info = await stat(file).catch(() => null);
    if (!info) return base.catalog;
    const key = `${base.source.version}:${info.mtimeMs}:${info.size}`;
    const cached = this.overlays.get(serverDataDir);
    if (cached?.key === key) return cached.catalog;
    const catalog = overlay(base.catalog, await readCustomItems(file));
    this.overlays.delete(serverDataDir);
    this.overlays.set(serverDataDir, { key, catalog });
    if (this.overlays.size > OVERLAYS_KEPT) this.overlays.delete(this.overlays.keys().next().value as string);
    return catalog;
  }

  /** The path of a base texture by file name, or null when it is not part of the texture set. */
  async baseTexture(name: string): Promise<string | null> {
    const base = await this.base();
    return base.textures.has(name) ? join(base.source.cacheDir, name) : null;
  }
}

const databases = new WeakMap<object, ItemDatabase>();

/** The item database of one api instance (its config's items directory), made on first use. */
export function itemDatabase(ctx: { config: { itemsDir: string }; now: () => number }): ItemDatabase {
  let db = databases.get(ctx);
  if (!db) {
    db = new ItemDatabase(ctx.config.itemsDir, ctx.now);
    databases.set(ctx, db);
  }
  return db;
}
