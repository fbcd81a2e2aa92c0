import { basename, isAbsolute, relative } from 'node:path';

/**
 * How the console names a file: relative to the data directory when it is inside it, else by its
 * file name alone. Collaborators read the console, and host paths are not theirs to see.
 */
export function consolePath(dataDir: string, path: string): string {
  const inside = relative(dataDir, path);
  return inside && !inside.startsWith('..') && !isAbsolute(inside) ? inside : basename(path);
}
