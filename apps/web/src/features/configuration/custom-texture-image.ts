// From a dropped PNG to the rttexBase64 the api takes (Custom Textures tab). Pure functions, run in the browser
// and in unit tests alike. Sizes are checked from the PNG header before anything is decoded.
import { CUSTOM_TEXTURE_MAX_SIDE, customItemsMessages } from '@canopy/contract';
import { encodeRttxtr, packRtpack, type RgbaImage } from '@canopy/formats';
import { convertIndexedToRgb, decode, hasPngSignature } from 'fast-png';

/** Largest PNG file accepted: far above a 1024x1024 sprite sheet, so a huge file is refused unread. */
export const MAX_PNG_BYTES = 8 * 1024 * 1024;

/** A refusal the tab shows as a toast. */
export class TextureImageError extends Error {}

/** True when the bytes start with the PNG signature (a .png name alone proves nothing). */
export function isPng(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && hasPngSignature(bytes);
}

/** Width and height from the IHDR chunk, which a valid PNG must have first. */
export function pngDimensions(bytes: Uint8Array): { width: number; height: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const type = String.fromCharCode(...bytes.subarray(12, 16));
  if (bytes.length < 24 || type !== 'IHDR') throw new TextureImageError('The PNG file is damaged (no IHDR header).');
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/** 8-bit RGBA from whatever fast-png decoded (grey, grey+alpha, RGB, RGBA, palette; 8 or 16 bits). */
function toRgba(png: ReturnType<typeof decode>): Uint8Array {
  const pixels = png.width * png.height;
  const source = png.palette ? convertIndexedToRgb(png) : png.data;
  const channels = png.palette ? source.length / pixels : png.channels;
  const shift = !png.palette && png.depth === 16 ? 8 : 0;
  const out = new Uint8Array(pixels * 4);
  for (let i = 0; i < pixels; i++) {
    const at = i * channels;
    const v = (k: number) => ((source[at + k] as number) >> shift) & 0xff;
    const grey = channels <= 2;
    out[i * 4] = v(0);
    out[i * 4 + 1] = grey ? v(0) : v(1);
    out[i * 4 + 2] = grey ? v(0) : v(2);
    out[i * 4 + 3] = channels === 2 ? v(1) : channels === 4 ? v(3) : 255;
  }
  return out;
}

/**
 * Decodes a PNG into top-down RGBA. Refuses a file that is not a PNG, is too large, or whose header claims
 * more than CUSTOM_TEXTURE_MAX_SIDE pixels a side, before decoding it.
 */
export function decodePngFile(bytes: Uint8Array): RgbaImage {
  if (!isPng(bytes)) throw new TextureImageError(customItemsMessages.onlyPng);
  if (bytes.length > MAX_PNG_BYTES) throw new TextureImageError('The PNG file is larger than 8 MB.');
  const { width, height } = pngDimensions(bytes);
  const max = CUSTOM_TEXTURE_MAX_SIDE;
  if (width < 1 || height < 1 || width > max || height > max)
    throw new TextureImageError(`The image is ${width}x${height} pixels; at most ${max}x${max} is allowed.`);
  let png: ReturnType<typeof decode>;
  try {
    png = decode(bytes);
  } catch {
    throw new TextureImageError('The PNG file is damaged and cannot be read.');
  }
  if (png.width !== width || png.height !== height) throw new TextureImageError('The PNG file is damaged.');
  return { width, height, rgba: toRgba(png) };
}

/** zlib deflate with the browser's CompressionStream ('deflate' is the zlib-wrapped format RTPACK holds). */
export async function deflateInBrowser(data: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([data as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Base64 of bytes, in chunks so that a large texture does not overflow the argument list. */
export function toBase64(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

/**
 * The RTTEX container the api takes, base64-encoded: an RTTXTR (encodeRttxtr stores the rows bottom-up,
 * which is the spec's vertical flip) packed in a zlib RTPACK.
 */
export async function buildRttexBase64(image: RgbaImage): Promise<string> {
  const rttxtr = encodeRttxtr(image);
  const compressed = await deflateInBrowser(rttxtr);
  return toBase64(packRtpack(rttxtr, () => compressed));
}
