// An uploaded texture, from base64 to a verified RTTEX file name. Everything is bounded before it is
// allocated: the base64 length by the contract schema, the RTTEX sizes and the inflated size by
// verifyRttexUpload (an inflate that stops at the size the header declares).
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { inflate } from 'node:zlib';
import {
  CUSTOM_TEXTURE_MAX_SIDE,
  type CustomItem,
  type CustomTextureProperties,
  type customItemCreateSchema,
  customItemsMessages,
  customTextureNamePattern,
  textureCellProblem,
} from '@canopy/contract';
import { RttexUploadError, type VerifiedRttex, verifyRttexUploadAsync } from '@canopy/formats';
import type { z } from 'zod';
import { badRequest } from '../errors.ts';
import type { ServerFiles } from '../runtime/server-files.ts';

/** Where a server's textures live inside its data directory (the engine and GET /cache/{file} read it). */
export const TEXTURE_DIR = 'cache';

/** The cache file name of a texture: its content hash, so the same upload twice is one file. */
export function textureFileName(bytes: Uint8Array): string {
  return `custom_${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}.rttex`;
}

const inflateAsync = promisify(inflate);

// On the thread pool, so a 4 MB texture does not hold the event loop; the cap is what the header declares.
const boundedInflate = async (data: Uint8Array, maxOutput: number) => {
  const out = await inflateAsync(data, { maxOutputLength: Math.max(1, maxOutput) });
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
};

/** Decodes and verifies an upload; a bad one is a 400 saying what is wrong with it. */
export async function verifyUploadedTexture(base64: string): Promise<{ bytes: Buffer; image: VerifiedRttex }> {
  // The schema allows only the base64 alphabet with correct padding, so decoding cannot silently skip input.
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length === 0) throw badRequest(customItemsMessages.badBase64, 'invalid_texture');
  try {
    const image = await verifyRttexUploadAsync(
      new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      boundedInflate,
      {
        maxSide: CUSTOM_TEXTURE_MAX_SIDE,
      },
    );
    return { bytes, image };
  } catch (error) {
    if (error instanceof RttexUploadError) throw badRequest(error.message, 'invalid_texture');
    throw error;
  }
}

/** POST custom-item once its texture is verified: what the item is made from (bytes is the RTTEX file). */
export interface TextureUpload {
  itemName: string;
  rarity: number;
  properties: CustomTextureProperties;
  bytes: Uint8Array;
  file: string;
}

/**
 * Verifies a POST custom-item's texture and that its 32x32 cell lies inside it, and names its cache file: a
 * 1024x1024 upload costs a few hundred milliseconds of decoding and hashing, so this runs on a worker thread
 * (workers/tasks.ts). A bad upload is a 400 saying what is wrong with it.
 */
export async function checkTextureUpload(body: z.output<typeof customItemCreateSchema>): Promise<TextureUpload> {
  const { bytes, image } = await verifyUploadedTexture(body.rttexBase64);
  const cell = textureCellProblem(body.properties.texture_x ?? 0, body.properties.texture_y ?? 0, image);
  if (cell) throw badRequest(cell, 'texture_cell_outside');
  const { itemName, rarity, properties } = body;
  return { itemName, rarity, properties, bytes, file: textureFileName(bytes) };
}

/**
 * Removes the server's uploaded textures that no item uses any more (an item deleted on the Custom Items
 * tab): they would count toward the owner's storage for ever, with no way for the owner to delete them.
 * Runs inside the server's config-write turn, so an upload cannot be between its texture and its item.
 */
export async function sweepUnusedTextures(files: ServerFiles, items: readonly CustomItem[]): Promise<void> {
  const used = new Set(items.flatMap((item) => (item.texture ? [item.texture.file] : [])));
  for (const name of await files.listTextures())
    if (customTextureNamePattern.test(name) && !used.has(name)) await files.remove(`${TEXTURE_DIR}/${name}`);
}
