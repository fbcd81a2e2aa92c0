// items.dat as the client handles it: the Proton hash the server announces, and the zlib body of tank type 16.

import { inflateSync } from 'node:zlib';

/** Proton hash: h = 0x55555555; per byte h = (h >>> 27) + (h << 5) + b, all unsigned 32-bit. */
export function protonHash(data: Uint8Array): number {
  let h = 0x55555555;
  for (const b of data) h = ((h >>> 27) + (h << 5) + b) >>> 0;
  return h;
}

/** Inflates the extended data of a type 16 tank; null when it is not a zlib stream (or inflates past `limit`). */
export function inflateItems(extended: Buffer, limit = 64 * 1024 * 1024): Buffer | null {
  try {
    return inflateSync(extended, { maxOutputLength: limit });
  } catch {
    return null;
  }
}
