// The reflected CRC-32 (polynomial 0xEDB88320, initial and final XOR 0xFFFFFFFF) that ENet's enet_crc32 computes.
// zlib computes the same one natively (node:zlib's crc32, Node 22.2 and later), many times faster than the table
// below, which stays for older Nodes; a test checks the two agree.

import * as zlib from 'node:zlib';

type Crc32 = (data: Uint8Array, prior?: number) => number;
const native = (zlib as { crc32?: Crc32 }).crc32;

const TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/**
 * CRC-32 of `data` as a number; ENet puts it on the wire big-endian (it converts it to network order).
 * `prior` continues an earlier result: crc32(b, crc32(a)) is the CRC of a followed by b.
 */
export function crc32(data: Uint8Array, prior = 0): number {
  return native ? native(data, prior) : tableCrc32(data, prior);
}

/** The same CRC from a table, byte by byte. */
export function tableCrc32(data: Uint8Array, prior = 0): number {
  let crc = (prior ^ 0xffffffff) >>> 0;
  const n = data.length;
  for (let i = 0; i < n; i++) crc = (TABLE[(crc ^ (data[i] as number)) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
