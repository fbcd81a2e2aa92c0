// RTPACK: Proton's 32-byte container around a zlib stream. zlib itself is injected so this file has no
// Node or browser dependency (node.ts passes node:zlib, browser.ts uses DecompressionStream).

/** Synchronous zlib (RFC 1950) inflate, e.g. node:zlib inflateSync. */
export type Inflate = (data: Uint8Array) => Uint8Array;
/** Synchronous zlib (RFC 1950) deflate, e.g. node:zlib deflateSync. */
export type Deflate = (data: Uint8Array) => Uint8Array;

/** The fixed RTPACK header fields. */
export interface RtpackHeader {
  version: number;
  compressedSize: number;
  decompressedSize: number;
  /** 0 stored, 1 zlib. */
  compressionType: number;
}

/** RTPACK header length in bytes. */
export const RTPACK_HEADER_SIZE = 32;
const COMPRESSION_NONE = 0;
const COMPRESSION_ZLIB = 1;

/** True when `bytes` starts with the given 6-character ASCII magic. */
export function hasMagic(bytes: Uint8Array, magic: string): boolean {
  if (bytes.length < magic.length) return false;
  for (let i = 0; i < magic.length; i++) if (bytes[i] !== magic.charCodeAt(i)) return false;
  return true;
}

/** The first bytes of `bytes` as printable text, for "wrong magic" messages. */
export function describeMagic(bytes: Uint8Array, length = 6): string {
  return JSON.stringify(String.fromCharCode(...bytes.subarray(0, length)));
}

/** Parses and checks the RTPACK header; returns it with the (still compressed) payload. */
export function readRtpack(bytes: Uint8Array): { header: RtpackHeader; payload: Uint8Array } {
  if (bytes.length < RTPACK_HEADER_SIZE) {
    throw new Error(`RTPACK: truncated header: ${bytes.length} bytes, need ${RTPACK_HEADER_SIZE}`);
  }
  if (!hasMagic(bytes, 'RTPACK')) throw new Error(`RTPACK: wrong magic ${describeMagic(bytes)}, expected "RTPACK"`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const header: RtpackHeader = {
    version: view.getUint8(6),
    compressedSize: view.getUint32(8, true),
    decompressedSize: view.getUint32(12, true),
    compressionType: view.getUint8(16),
  };
  if (header.compressionType !== COMPRESSION_ZLIB && header.compressionType !== COMPRESSION_NONE) {
    throw new Error(`RTPACK: unsupported compression type ${header.compressionType} (0 none, 1 zlib)`);
  }
  const available = bytes.length - RTPACK_HEADER_SIZE;
  if (header.compressedSize > available) {
    throw new Error(`RTPACK: truncated payload: header says ${header.compressedSize} bytes, ${available} present`);
  }
  const payload = bytes.subarray(RTPACK_HEADER_SIZE, RTPACK_HEADER_SIZE + header.compressedSize);
  return { header, payload };
}

/** Checks the inflated payload against the header's decompressed size and returns it. */
export function checkUnpacked(header: RtpackHeader, data: Uint8Array): Uint8Array {
  if (data.length !== header.decompressedSize) {
    throw new Error(`RTPACK: payload inflated to ${data.length} bytes, header says ${header.decompressedSize}`);
  }
  return data;
}

/** The payload of an RTPACK file, inflated with `inflate`. */
export function unpackRtpack(bytes: Uint8Array, inflate: Inflate): Uint8Array {
  const { header, payload } = readRtpack(bytes);
  if (header.compressionType === COMPRESSION_NONE) return checkUnpacked(header, payload);
  let data: Uint8Array;
  try {
    data = inflate(payload);
  } catch (error) {
    throw new Error(`RTPACK: corrupt zlib payload: ${(error as Error).message}`, { cause: error });
  }
  return checkUnpacked(header, data);
}

/** Wraps `payload` (usually an RTTXTR file) in an RTPACK container compressed with `deflate`. */
export function packRtpack(payload: Uint8Array, deflate: Deflate): Uint8Array {
  const compressed = deflate(payload);
  const out = new Uint8Array(RTPACK_HEADER_SIZE + compressed.length);
  const view = new DataView(out.buffer);
  for (let i = 0; i < 6; i++) out[i] = 'RTPACK'.charCodeAt(i);
  view.setUint8(6, 1); // version
  view.setUint32(8, compressed.length, true);
  view.setUint32(12, payload.length, true);
  view.setUint8(16, COMPRESSION_ZLIB);
  out.set(compressed, RTPACK_HEADER_SIZE);
  return out;
}
