import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { EFFECTIVE_ITEMS_DAT } from '../../items/effective-items.ts';

/** The items.dat the engine serves, as the game layer needs it. */
export interface ItemsData {
  /** Proton hash of the file's bytes (what the client compares); 0 when there is none. */
  hash: number;
  /** The file deflated with zlib, for refresh_item_data. */
  deflated: Buffer;
  /** The file's size before deflating: the value field of the items.dat tank (the real server sends it). */
  size: number;
  /** Whether the file defines the item. */
  has(id: number): boolean;
  /** The item's items.dat action type (door, lock, foreground...); undefined for an unknown item. */
  actionOf(id: number): number | undefined;
  /** Punches that break an item's tile (items.dat breakHits, at least 1). */
  hitsToBreak(id: number): number;
}

/**
 * Reads the effective items.dat (built after READY by items/effective-items.ts). A missing or unreadable file
 * gives an empty database with hash 0, where every tile breaks in one punch.
 */
export async function loadItemsData(dataDir: string): Promise<ItemsData> {
  const { decodeItemsDat, protonHash } = await import('@canopy/formats');
  let bytes: Buffer;
  const hits = new Map<number, number>();
  const actions = new Map<number, number>();
  try {
    bytes = await readFile(join(dataDir, EFFECTIVE_ITEMS_DAT));
    for (const item of decodeItemsDat(new Uint8Array(bytes)).items) {
      hits.set(item.id, Math.max(1, Math.round(item.breakHits)));
      actions.set(item.id, item.actionType);
    }
  } catch {
    bytes = Buffer.alloc(0);
  }
  return {
    hash: bytes.length ? protonHash(bytes) : 0,
    deflated: deflateSync(bytes),
    size: bytes.length,
    has: (id) => hits.has(id),
    actionOf: (id) => actions.get(id),
    hitsToBreak: (id) => hits.get(id) ?? 1,
  };
}
