import { join } from 'node:path';
import { engineConfigFiles } from '@canopy/contract/engine-constants';
import { badRequest } from '../errors.ts';
import { TEXTURE_CACHE_DIR } from '../items/effective-items.ts';

/** The engine's database inside its data directory (engine.ts opens it). */
export const DATABASE_NAME = 'engine.db';

/** A server's own items.dat (rebuilt with its custom items), which wins over the operator's. */
export const OWN_ITEMS_DAT = 'items.dat';

/** What an unfinished whole-file write leaves behind: `<name>.<12 hex>.tmp` (swept at start, sweep.ts). */
export const UNFINISHED_WRITE = /\.[0-9a-f]{12}\.tmp$/;

/** The names the file API serves at the top of the data directory; nothing else there is a file of it. */
const TOP_LEVEL: ReadonlySet<string> = new Set([...Object.values(engineConfigFiles), OWN_ITEMS_DAT]);

/** A texture's name in `cache/`: no separator, no leading dot (so neither `.` nor `..`). */
const TEXTURE_NAME = /^(?!\.)[A-Za-z0-9._-]{1,100}$/;

/** True for a name a texture may have in `cache/` (an unfinished write's name is not one: the sweep removes those). */
export const isTextureName = (name: string) => TEXTURE_NAME.test(name) && !UNFINISHED_WRITE.test(name);

/**
 * The path of a file the file API names (docs/engine-files-api.md): one of the config files or `items.dat`, or
 * with `texture` a name in `cache/`. Anything else is a 400, and no name can leave the data directory.
 */
export function filePath(dataDir: string, name: string, texture: boolean): string {
  if (texture) {
    if (!isTextureName(name))
      throw badRequest(`"${name}" is not a texture name (1-100 of A-Z a-z 0-9 . _ -, not starting with a dot).`);
    return join(dataDir, TEXTURE_CACHE_DIR, name);
  }
  if (!TOP_LEVEL.has(name)) throw badRequest(`"${name}" is not a file of the server (${[...TOP_LEVEL].join(', ')}).`);
  return join(dataDir, name);
}
