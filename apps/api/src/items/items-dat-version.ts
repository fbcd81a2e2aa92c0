// The operator's item database as engines ask for it: by version, the sha256 of its bytes (ADR 0041).
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { operatorItemsDat } from './item-database-dir.ts';

/** The operator's items.dat and its version (sha256, hex). */
export interface VersionedItemsDat {
  path: string;
  version: string;
}

// An installed version's files never change (item-database-dir.ts: a new install is a new folder), so a path's
// hash is computed once.
const hashes = new Map<string, Promise<string>>();

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The operator's installed items.dat with its version, or undefined while the bundled one is in use. */
export async function operatorItemsVersion(itemsDir: string): Promise<VersionedItemsDat | undefined> {
  const path = operatorItemsDat(itemsDir);
  if (!path) return undefined;
  let version = hashes.get(path);
  if (!version) {
    version = sha256Of(path);
    hashes.set(path, version);
    version.catch(() => hashes.delete(path)); // a failed read is tried again next time
  }
  return { path, version: await version };
}
