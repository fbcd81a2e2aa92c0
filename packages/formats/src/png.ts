// PNG writing through fast-png (pure JS, typed, maintained; also what the web app uses), so sprites can be
// served or inspected. Why this library rather than our own encoder: docs/decisions/0014-item-database-and-png.md.
import { encode } from 'fast-png';

/** Encodes top-down RGBA8888 pixels as a PNG file (8-bit, 4 channels). */
export function encodePng(width: number, height: number, rgba: Uint8Array): Uint8Array {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new Error(`PNG: size ${width}x${height} must be positive integers`);
  }
  if (rgba.length !== width * height * 4) {
    throw new Error(`PNG: ${width}x${height} RGBA needs ${width * height * 4} bytes, got ${rgba.length}`);
  }
  return encode({ width, height, data: rgba, depth: 8, channels: 4 });
}
