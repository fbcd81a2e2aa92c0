// RTTXTR textures (Proton SDK): a 100-byte header, then per mip a 24-byte header and raw pixels.
// Pixels are stored bottom-up in a power-of-two canvas; we expose top-down RGBA at the original size.
import { ByteReader } from './bytes.ts';
import { describeMagic, hasMagic, type Inflate, unpackRtpack } from './rtpack.ts';

/** Top-down RGBA8888 pixels. */
export interface RgbaImage {
  width: number;
  height: number;
  rgba: Uint8Array;
}

/** A decoded texture: original size pixels plus the stored power-of-two size. */
export interface RttexImage extends RgbaImage {
  paddedWidth: number;
  paddedHeight: number;
}

/** RTTXTR header length in bytes. */
export const RTTXTR_HEADER_SIZE = 100;
/** Per-mip header length in bytes. */
export const RTTEX_MIP_HEADER_SIZE = 24;
/** GL_UNSIGNED_BYTE: 8 bits per channel, RGBA when usesAlpha is set, else RGB. */
export const RTTEX_FORMAT_UNSIGNED_BYTE = 5121;
// Larger than any real sheet; stops a corrupt header from asking for gigabytes.
const MAX_SIDE = 16384;

/** The smallest power of two >= n (n >= 1). */
export function nextPowerOfTwo(n: number): number {
  let p = 1;
  while (p < n) p *= 2;
  return p;
}

function checkSide(value: number, what: string): void {
  if (!Number.isInteger(value) || value < 1 || value > MAX_SIDE) {
    throw new Error(`RTTXTR: ${what} ${value} is outside 1..${MAX_SIDE}`);
  }
}

/** Decodes a bare RTTXTR file (first mip only). */
export function decodeRttxtr(bytes: Uint8Array): RttexImage {
  if (bytes.length >= 6 && !hasMagic(bytes, 'RTTXTR')) {
    throw new Error(`RTTXTR: wrong magic ${describeMagic(bytes)}, expected "RTTXTR"`);
  }
  const r = new ByteReader(bytes, 'RTTXTR');
  r.bytesView(8, 'magic and version');
  const paddedHeight = r.i32('height');
  const paddedWidth = r.i32('width');
  const format = r.i32('format');
  const height = r.i32('original height');
  const width = r.i32('original width');
  const usesAlpha = r.u8('usesAlpha');
  const alreadyCompressed = r.u8('alreadyCompressed');
  r.bytesView(2, 'reserved');
  const mipCount = r.i32('mipmap count');
  r.bytesView(64, 'reserved');
  checkSide(paddedWidth, 'width');
  checkSide(paddedHeight, 'height');
  checkSide(width, 'original width');
  checkSide(height, 'original height');
  if (width > paddedWidth || height > paddedHeight) {
    throw new Error(`RTTXTR: original size ${width}x${height} exceeds stored size ${paddedWidth}x${paddedHeight}`);
  }
  if (format !== RTTEX_FORMAT_UNSIGNED_BYTE || alreadyCompressed !== 0) {
    throw new Error(`RTTXTR: unsupported pixel format ${format} (compressed ${alreadyCompressed}); only 5121 raw`);
  }
  if (mipCount < 1) throw new Error(`RTTXTR: mipmap count ${mipCount}, need at least 1`);

  const mipHeight = r.i32('mip height');
  const mipWidth = r.i32('mip width');
  const dataSize = r.i32('mip data size');
  r.bytesView(12, 'mip level and reserved');
  if (mipWidth !== paddedWidth || mipHeight !== paddedHeight) {
    throw new Error(`RTTXTR: first mip is ${mipWidth}x${mipHeight}, header says ${paddedWidth}x${paddedHeight}`);
  }
  const channels = usesAlpha ? 4 : 3;
  if (dataSize !== paddedWidth * paddedHeight * channels) {
    throw new Error(`RTTXTR: mip data size ${dataSize}, expected ${paddedWidth * paddedHeight * channels}`);
  }
  const pixels = r.bytesView(dataSize, 'mip pixels');

  // The image sits in the first rows of the stored (bottom-up) canvas, where texture coordinates start,
  // so top-down row y is stored row height-1-y; the padding lies beyond it.
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    const src = (height - 1 - y) * paddedWidth * channels;
    const dst = y * width * 4;
    if (channels === 4) {
      rgba.set(pixels.subarray(src, src + width * 4), dst);
      continue;
    }
    for (let x = 0; x < width; x++) {
      rgba[dst + x * 4] = pixels[src + x * 3] as number;
      rgba[dst + x * 4 + 1] = pixels[src + x * 3 + 1] as number;
      rgba[dst + x * 4 + 2] = pixels[src + x * 3 + 2] as number;
      rgba[dst + x * 4 + 3] = 255;
    }
  }
  return { width, height, paddedWidth, paddedHeight, rgba };
}

/** Decodes an RTPACK-wrapped or bare RTTXTR texture; `inflate` is used only for RTPACK. */
export function decodeRttex(bytes: Uint8Array, inflate: Inflate): RttexImage {
  if (hasMagic(bytes, 'RTPACK')) {
    const inner = unpackRtpack(bytes, inflate);
    if (!hasMagic(inner, 'RTTXTR')) {
      throw new Error(`RTPACK: payload is not an RTTXTR texture (magic ${describeMagic(inner)})`);
    }
    return decodeRttxtr(inner);
  }
  if (hasMagic(bytes, 'RTTXTR')) return decodeRttxtr(bytes);
  throw new Error(`RTTEX: wrong magic ${describeMagic(bytes)}, expected "RTPACK" or "RTTXTR"`);
}

/** Encodes top-down RGBA as a bare RTTXTR: one mip, padded to powers of two, rows stored bottom-up. */
export function encodeRttxtr(image: RgbaImage): Uint8Array {
  const { width, height, rgba } = image;
  checkSide(width, 'width');
  checkSide(height, 'height');
  if (rgba.length !== width * height * 4) {
    throw new Error(`RTTXTR: ${width}x${height} RGBA needs ${width * height * 4} bytes, got ${rgba.length}`);
  }
  const pw = nextPowerOfTwo(width);
  const ph = nextPowerOfTwo(height);
  const dataSize = pw * ph * 4;
  const out = new Uint8Array(RTTXTR_HEADER_SIZE + RTTEX_MIP_HEADER_SIZE + dataSize);
  const view = new DataView(out.buffer);
  for (let i = 0; i < 6; i++) out[i] = 'RTTXTR'.charCodeAt(i);
  view.setInt32(8, ph, true);
  view.setInt32(12, pw, true);
  view.setInt32(16, RTTEX_FORMAT_UNSIGNED_BYTE, true);
  view.setInt32(20, height, true);
  view.setInt32(24, width, true);
  view.setUint8(28, 1); // usesAlpha
  view.setInt32(32, 1, true); // mipmap count
  const mip = RTTXTR_HEADER_SIZE;
  view.setInt32(mip, ph, true);
  view.setInt32(mip + 4, pw, true);
  view.setInt32(mip + 8, dataSize, true);
  const pixels = mip + RTTEX_MIP_HEADER_SIZE;
  for (let y = 0; y < height; y++) {
    out.set(rgba.subarray(y * width * 4, (y + 1) * width * 4), pixels + (height - 1 - y) * pw * 4);
  }
  return out;
}

/** The `size`x`size` RGBA cell at column `x`, row `y` of a sheet; parts past the sheet's edge are transparent. */
export function cutSprite(texture: RgbaImage, x: number, y: number, size = 32): Uint8Array {
  if (![x, y].every((v) => Number.isInteger(v) && v >= 0) || !Number.isInteger(size) || size < 1) {
    throw new Error(`cutSprite: cell (${x}, ${y}) size ${size} must be non-negative integers (size >= 1)`);
  }
  const left = x * size;
  const top = y * size;
  if (left >= texture.width || top >= texture.height) {
    throw new Error(`cutSprite: cell (${x}, ${y}) lies outside the ${texture.width}x${texture.height} texture`);
  }
  const out = new Uint8Array(size * size * 4);
  const w = Math.min(size, texture.width - left);
  const h = Math.min(size, texture.height - top);
  for (let row = 0; row < h; row++) {
    const src = ((top + row) * texture.width + left) * 4;
    out.set(texture.rgba.subarray(src, src + w * 4), row * size * 4);
  }
  return out;
}
