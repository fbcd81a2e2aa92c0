// The hash Proton SDK games use for items.dat and texture files (the client compares it to decide
// whether to download items.dat again).

/** Proton hash of `bytes` as an unsigned 32-bit integer: h = 0x55555555; h = (h >>> 27) + (h << 5) + b. */
export function protonHash(bytes: Uint8Array): number {
  let h = 0x55555555;
  for (let i = 0; i < bytes.length; i++) {
    // `>>> 0` wraps the sum modulo 2^32; the intermediate sum is exact in a double.
    h = ((h >>> 27) + (h << 5) + (bytes[i] as number)) >>> 0;
  }
  return h;
}
