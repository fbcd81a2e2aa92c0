import { closeSync, fsyncSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { CustomItem } from '@canopy/contract/engine';
import type { Item, ItemOverride, ItemsDat } from '@canopy/formats';
import { PRIVATE_FILE } from '../private-files.ts';

/**
 * The items.dat the engine serves: the base file plus this server's custom items. A file of its own (not
 * `items.dat`, which names an operator's base file) so that a rebuild never builds on its own output.
 */
export const EFFECTIVE_ITEMS_DAT = 'effective-items.dat';

/** Where uploaded textures live (`<data-dir>/cache/<file>`), as the client's cache names them. */
export const TEXTURE_CACHE_DIR = 'cache';

/** What a build gave: the items (for names) and the file's Proton hash (what the client compares). */
export interface EffectiveItems {
  items: Item[];
  version: number;
  hash: number;
  bytes: number;
  /** Texture files the custom items name that could not be read (their hash is 0). */
  missingTextures: string[];
}

type Formats = typeof import('@canopy/formats');

/** The formats package's overrides for the custom items; texture hashes read from the cache. */
function overridesOf(formats: Formats, dataDir: string, custom: readonly CustomItem[], missing: string[]) {
  return custom.map((item): ItemOverride => {
    const override: ItemOverride = { id: item.ID, name: item.Name, description: item.Desc, rarity: item.rarity };
    const t = item.texture;
    if (!t) return override;
    let hash = 0;
    try {
      hash = formats.protonHash(readFileSync(join(dataDir, TEXTURE_CACHE_DIR, t.file)));
    } catch {
      missing.push(t.file);
    }
    override.texture = {
      file: t.file,
      hash,
      x: t.texture_x,
      y: t.texture_y,
      kind: t.item_kind,
      clothingType: t.clothing_type,
      breakHits: t.break_hits,
      growTime: t.grow_time,
      collisionType: t.collision_type,
    };
    return override;
  });
}

/**
 * Builds the effective items.dat from `base` (undefined: no base file, custom items only) and writes it
 * whole or not at all into the data directory. The formats package is loaded here, after READY.
 */
export async function buildEffectiveItems(
  dataDir: string,
  base: ItemsDat | undefined,
  custom: readonly CustomItem[],
): Promise<EffectiveItems> {
  const formats = await import('@canopy/formats');
  const missingTextures: string[] = [];
  const start: ItemsDat = base ?? { version: formats.LATEST_ITEMS_DAT_VERSION, items: [] };
  const dat = formats.buildItemsDat(start, overridesOf(formats, dataDir, custom, missingTextures));
  const bytes = formats.encodeItemsDat(dat);
  const file = join(dataDir, EFFECTIVE_ITEMS_DAT);
  // What an engine killed in the middle of an earlier build left behind.
  for (const name of readdirSync(dataDir))
    if (name.startsWith(`${EFFECTIVE_ITEMS_DAT}.`) && name.endsWith('.tmp'))
      rmSync(join(dataDir, name), { force: true });
  // Named as the api's config writes are (`<name>.<12 hex>.tmp`): the api sweeps one a killed engine left
  // at its next start, so it does not count toward the owner's storage for ever.
  // Through getBuiltinModule, not an ES import of node:crypto (players/password.ts says why).
  const tmp = `${file}.${process.getBuiltinModule('node:crypto').randomBytes(6).toString('hex')}.tmp`;
  const fd = openSync(tmp, 'wx', PRIVATE_FILE);
  try {
    writeSync(fd, bytes);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
  return {
    items: dat.items,
    version: dat.version,
    hash: formats.protonHash(bytes),
    bytes: bytes.length,
    missingTextures,
  };
}
