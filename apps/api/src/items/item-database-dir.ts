// Where the item database lives. The bundled one (@canopy/formats' generated assets) is the default; an
// operator installs their own with `npm run items -- install` (scripts/items.ts, install.ts), which writes
//
//   <itemsDir>/versions/<id>/items.dat
//   <itemsDir>/versions/<id>/cache/*.rttex
//   <itemsDir>/current -> versions/<id>      (a symlink, replaced atomically by rename)
//
// so that the api, engines starting at that moment and the pages never see half an install.
import { existsSync, readlinkSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The link naming the installed version, inside the item-database directory. */
export const CURRENT_LINK = 'current';
/** The folder of installed versions, inside the item-database directory. */
export const VERSIONS_DIR = 'versions';

/** One item database: its items.dat and the folder of its textures. */
export interface ItemDatabaseSource {
  itemsDat: string;
  cacheDir: string;
  /** 'bundled', or the installed version's id. */
  version: string;
}

const bundledItemsDat = fileURLToPath(import.meta.resolve('@canopy/formats/assets/items.dat'));

/** Canopy's own generated item database. */
export const bundledSource: ItemDatabaseSource = {
  itemsDat: bundledItemsDat,
  cacheDir: join(dirname(bundledItemsDat), 'cache'),
  version: 'bundled',
};

/** The id the `current` link names, or null when no operator database is installed. */
export function installedVersion(itemsDir: string): string | null {
  try {
    const target = readlinkSync(join(itemsDir, CURRENT_LINK));
    return target.split('/').pop() || null;
  } catch {
    return null;
  }
}

/** The item database in use: the operator's installed one, else the bundled one. */
export function activeSource(itemsDir: string): ItemDatabaseSource {
  const version = installedVersion(itemsDir);
  if (!version) return bundledSource;
  // Resolved once: a later install moves `current`, never the files of this version.
  const dir = realpathSync(join(itemsDir, VERSIONS_DIR, version));
  const itemsDat = join(dir, 'items.dat');
  if (!existsSync(itemsDat)) return bundledSource;
  return { itemsDat, cacheDir: join(dir, 'cache'), version };
}

/** The operator's items.dat to hand to an engine, or undefined when the bundled one is in use. */
export function operatorItemsDat(itemsDir: string): string | undefined {
  const source = activeSource(itemsDir);
  return source === bundledSource ? undefined : source.itemsDat;
}
