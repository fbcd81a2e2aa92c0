// Node entry: everything from index.ts plus zlib from node:zlib and the PNG writer (fast-png).
import { deflateSync, inflateSync } from 'node:zlib';
import { type Deflate, type Inflate, packRtpack } from './rtpack.ts';
import { decodeRttex, encodeRttxtr, type RgbaImage, type RttexImage } from './rttex.ts';

export * from './index.ts';
export { encodePng } from './png.ts';

/** zlib inflate backed by node:zlib, returning a plain Uint8Array view. */
export const nodeInflate: Inflate = (data) => {
  const out = inflateSync(data);
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
};

/** zlib deflate at level 9 backed by node:zlib (deterministic for a given zlib build). */
export const nodeDeflate: Deflate = (data) => {
  const out = deflateSync(data, { level: 9 });
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
};

/** Decodes an RTPACK or bare RTTXTR texture file. */
export function decodeRttexFile(bytes: Uint8Array): RttexImage {
  return decodeRttex(bytes, nodeInflate);
}

/** Encodes top-down RGBA as an RTPACK-wrapped RTTXTR file, as the game's cache holds them. */
export function encodeRtpack(image: RgbaImage): Uint8Array {
  return packRtpack(encodeRttxtr(image), nodeDeflate);
}
