import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Bytes stored under a folder (files only; a missing folder holds nothing). */
export async function folderBytes(path: string): Promise<number> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await readdir(path, { withFileTypes: true });
  } catch {
    return 0;
  }
  let total = 0;
  for (const entry of entries) {
    const full = join(path, entry.name);
    if (entry.isDirectory()) total += await folderBytes(full);
    else if (entry.isFile()) total += (await lstat(full).catch(() => ({ size: 0 }))).size;
  }
  return total;
}
