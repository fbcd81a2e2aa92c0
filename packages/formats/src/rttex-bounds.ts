// Verifying an RTTEX file someone uploaded: every size is checked against the header and against fixed limits
// BEFORE anything is allocated or inflated, so a tiny file that claims 60000x60000 pixels or a zlib bomb costs
// nothing. Platform-neutral: the caller passes an inflate that stops at a given output size.
import { hasMagic, RTPACK_HEADER_SIZE } from './rtpack.ts';
import { decodeRttxtr, RTTEX_FORMAT_UNSIGNED_BYTE, RTTEX_MIP_HEADER_SIZE, RTTXTR_HEADER_SIZE } from './rttex.ts';

/**
 * zlib inflate that fails (throws) instead of producing more than `maxOutput` bytes, e.g.
 * `(data, max) => inflateSync(data, { maxOutputLength: max })` in Node.
 */
export type BoundedInflate = (data: Uint8Array, maxOutput: number) => Uint8Array;

/** Limits of an uploaded texture. */
export interface RttexUploadLimits {
  /** Largest stored (power-of-two) side in pixels. */
  maxSide: number;
}

/** The default: 1024x1024, far above a 32x32 item sprite, 4 MB of pixels at most. */
export const DEFAULT_RTTEX_UPLOAD_LIMITS: RttexUploadLimits = { maxSide: 1024 };

/** The exact size of a one-mip RGBA RTTXTR file whose stored sides are at most `maxSide`. */
export function maxRttxtrSize(maxSide: number): number {
  return RTTXTR_HEADER_SIZE + RTTEX_MIP_HEADER_SIZE + maxSide * maxSide * 4;
}

/** A refused upload; the message says what is wrong with the file (safe to show to its sender). */
export class RttexUploadError extends Error {}

/** What a verified upload holds. */
export interface VerifiedRttex {
  width: number;
  height: number;
  paddedWidth: number;
  paddedHeight: number;
}

const isPowerOfTwo = (n: number) => n > 0 && (n & (n - 1)) === 0;

/**
 * Checks the RTTXTR header alone (the first 124 bytes: header and first mip header) and returns the exact
 * file size it implies. Only one-mip RGBA8888 textures (what the panel makes) are accepted.
 */
export function checkRttxtrHeader(bytes: Uint8Array, limits: RttexUploadLimits = DEFAULT_RTTEX_UPLOAD_LIMITS) {
  if (!hasMagic(bytes, 'RTTXTR')) throw new RttexUploadError('The texture is not an RTTXTR image.');
  if (bytes.length < RTTXTR_HEADER_SIZE + RTTEX_MIP_HEADER_SIZE)
    throw new RttexUploadError('The texture is truncated (its header is incomplete).');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const paddedHeight = view.getInt32(8, true);
  const paddedWidth = view.getInt32(12, true);
  const format = view.getInt32(16, true);
  const height = view.getInt32(20, true);
  const width = view.getInt32(24, true);
  const usesAlpha = view.getUint8(28);
  const alreadyCompressed = view.getUint8(29);
  const mipCount = view.getInt32(32, true);
  const mip = RTTXTR_HEADER_SIZE;
  const mipHeight = view.getInt32(mip, true);
  const mipWidth = view.getInt32(mip + 4, true);
  const dataSize = view.getInt32(mip + 8, true);
  const { maxSide } = limits;
  if (![paddedWidth, paddedHeight].every((side) => side >= 1 && side <= maxSide))
    throw new RttexUploadError(
      `The texture is ${paddedWidth}x${paddedHeight} pixels; at most ${maxSide}x${maxSide} is allowed.`,
    );
  if (!isPowerOfTwo(paddedWidth) || !isPowerOfTwo(paddedHeight))
    throw new RttexUploadError('The texture size must be a power of two.');
  if (width < 1 || height < 1 || width > paddedWidth || height > paddedHeight)
    throw new RttexUploadError(`The texture's image size ${width}x${height} does not fit its stored size.`);
  if (format !== RTTEX_FORMAT_UNSIGNED_BYTE || alreadyCompressed !== 0 || usesAlpha !== 1)
    throw new RttexUploadError('The texture must hold uncompressed RGBA pixels.');
  if (mipCount !== 1) throw new RttexUploadError('The texture must have exactly one mip level.');
  if (mipWidth !== paddedWidth || mipHeight !== paddedHeight || dataSize !== paddedWidth * paddedHeight * 4)
    throw new RttexUploadError("The texture's pixel data size does not match its header.");
  return {
    width,
    height,
    paddedWidth,
    paddedHeight,
    fileSize: RTTXTR_HEADER_SIZE + RTTEX_MIP_HEADER_SIZE + dataSize,
  };
}

/** Checks a bare RTTXTR file: header within limits and a length that is exactly what the header says. */
function verifyRttxtr(bytes: Uint8Array, limits: RttexUploadLimits): VerifiedRttex {
  const header = checkRttxtrHeader(bytes, limits);
  if (bytes.length < header.fileSize) throw new RttexUploadError('The texture is truncated.');
  if (bytes.length > header.fileSize) throw new RttexUploadError('The texture has unexpected bytes after its end.');
  try {
    decodeRttxtr(bytes);
  } catch (error) {
    throw new RttexUploadError(`The texture cannot be read: ${(error as Error).message}`);
  }
  const { width, height, paddedWidth, paddedHeight } = header;
  return { width, height, paddedWidth, paddedHeight };
}

/** An upload whose headers passed: bare (verified) or an RTPACK zlib payload still to inflate and verify. */
type Checked =
  | { done: VerifiedRttex }
  | { payload: Uint8Array; decompressedSize: number; finish: (inner: Uint8Array) => VerifiedRttex };

/** Everything that can be checked before inflating: magic, declared sizes against the bytes and the limits. */
function checkBeforeInflating(bytes: Uint8Array, limits: RttexUploadLimits): Checked {
  if (hasMagic(bytes, 'RTTXTR')) return { done: verifyRttxtr(bytes, limits) };
  if (!hasMagic(bytes, 'RTPACK')) throw new RttexUploadError('The file is not an RTTEX texture (RTPACK or RTTXTR).');
  if (bytes.length < RTPACK_HEADER_SIZE)
    throw new RttexUploadError('The texture is truncated (its header is incomplete).');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const compressedSize = view.getUint32(8, true);
  const decompressedSize = view.getUint32(12, true);
  const compression = view.getUint8(16);
  const present = bytes.length - RTPACK_HEADER_SIZE;
  if (compressedSize > present) throw new RttexUploadError('The texture is truncated.');
  if (compressedSize < present) throw new RttexUploadError('The texture has unexpected bytes after its end.');
  const max = maxRttxtrSize(limits.maxSide);
  if (decompressedSize > max || decompressedSize < RTTXTR_HEADER_SIZE + RTTEX_MIP_HEADER_SIZE)
    throw new RttexUploadError(
      `The texture claims ${decompressedSize} bytes of pixels; at most ${max} (${limits.maxSide}x${limits.maxSide}) is allowed.`,
    );
  const payload = bytes.subarray(RTPACK_HEADER_SIZE);
  if (compression === 0) {
    if (compressedSize !== decompressedSize) throw new RttexUploadError("The texture's sizes do not agree.");
    return { done: verifyRttxtr(payload, limits) };
  }
  if (compression !== 1) throw new RttexUploadError(`Unsupported RTPACK compression type ${compression}.`);
  const finish = (inner: Uint8Array) => {
    if (inner.length !== decompressedSize)
      throw new RttexUploadError(`The texture inflated to ${inner.length} bytes; its header says ${decompressedSize}.`);
    return verifyRttxtr(inner, limits);
  };
  return { payload, decompressedSize, finish };
}

// A corrupt stream and one that inflates past the declared size (a zlib bomb) alike.
const inflateFailed = () => new RttexUploadError('The texture data is corrupt or larger than its header says.');

/**
 * Verifies an uploaded RTPACK (zlib) or bare RTTXTR texture. For RTPACK the declared sizes are checked first
 * (compressed size = the bytes present, decompressed size within the limit) and the payload is inflated with
 * the declared size as a hard cap, so no input can make it allocate more than `maxRttxtrSize(maxSide)`.
 * Throws RttexUploadError with a message for the sender.
 */
export function verifyRttexUpload(
  bytes: Uint8Array,
  inflate: BoundedInflate,
  limits: RttexUploadLimits = DEFAULT_RTTEX_UPLOAD_LIMITS,
): VerifiedRttex {
  const checked = checkBeforeInflating(bytes, limits);
  if ('done' in checked) return checked.done;
  let inner: Uint8Array;
  try {
    inner = inflate(checked.payload, checked.decompressedSize);
  } catch {
    throw inflateFailed();
  }
  return checked.finish(inner);
}

/** verifyRttexUpload with an asynchronous inflate (e.g. node:zlib's inflate on the thread pool). */
export async function verifyRttexUploadAsync(
  bytes: Uint8Array,
  inflate: (data: Uint8Array, maxOutput: number) => Promise<Uint8Array>,
  limits: RttexUploadLimits = DEFAULT_RTTEX_UPLOAD_LIMITS,
): Promise<VerifiedRttex> {
  const checked = checkBeforeInflating(bytes, limits);
  if ('done' in checked) return checked.done;
  let inner: Uint8Array;
  try {
    inner = await inflate(checked.payload, checked.decompressedSize);
  } catch {
    throw inflateFailed();
  }
  return checked.finish(inner);
}
