// The item database the api serves: decoded once into memory, re-read only when an operator installs a new
// one, with each server's custom items laid over it (cached until custom-items.json changes).
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type CustomItem, customItemsFileSchema } from '@canopy/contract';
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

/** Custom items of a server's custom-items.json, or [] when it has none or the file does not parse. */
function parseCustomItems(bytes: Buffer): CustomItem[] {
  try {
    const parsed = customItemsFileSchema.safeParse(JSON.parse(bytes.toString('utf8')));
    return parsed.success ? parsed.data.items : [];
  } catch {
    return [];
  }
}

/** A server's custom items as the caller read them (its custom-items.json's bytes; undefined: it has none). */
export interface ServerCustomItems {
  serverId: string;
  bytes: Buffer | undefined;
}

export class ItemDatabase {
  private loaded: Promise<Loaded> | null = null;
  private version: string | null = null;
  private checkedAt = Number.NEGATIVE_INFINITY;
  private readonly overlays = new Map<string, { version: string; bytes: Buffer; catalog: ItemCatalog }>();

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
  async catalogFor(server: ServerCustomItems | null): Promise<ItemCatalog> {
    const base = await this.base();
    if (!server?.bytes) return base.catalog;
    const cached = this.overlays.get(server.serverId);
    // The file cache hands out the same Buffer until the file changes; equals() covers a fresh read of it.
    if (cached?.version === base.source.version && (cached.bytes === server.bytes || cached.bytes.equals(server.bytes)))
      return cached.catalog;
    const catalog = overlay(base.catalog, parseCustomItems(server.bytes));
    this.overlays.delete(server.serverId);
    this.overlays.set(server.serverId, { version: base.source.version, bytes: server.bytes, catalog });
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
