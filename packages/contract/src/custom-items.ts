// Custom Items and Custom Textures tabs (server-management document, sections 3, 5, 7 and 8).
import { z } from 'zod';
import { configSaveResponseSchema } from './configuration.ts';
import { customItemsFileSchema, customItemTextureSchema, MAX_CUSTOM_ITEMS } from './engine-config.ts';
import { requestIssueMessage, safeParseFirst } from './issues.ts';
import { boundedInt } from './world.ts';

/** Texts of the two tabs, exactly as the spec words them. */
export const customItemsMessages = {
  updated: 'Custom items updated successfully.',
  created: 'Custom item created successfully.',
  fetchFailed: 'Failed to fetch custom items.',
  saveFailed: 'Failed to save configuration.',
  createFailed: 'Failed to create custom item.',
  /** Prefix of a failed creation's toast. */
  errorPrefix: 'An error occurred: ',
  oneNewItem: 'Please edit the existing "New Item" before adding another.',
  confirmDelete: 'Are you sure you want to delete this item?',
  onlyPng: 'Only PNG files are supported.',
  fillAll: 'Please fill all fields and select a PNG file.',
  textureMissing: (file: string) => `The texture ${file} does not exist on this server.`,
  badBase64: 'rttexBase64 must be base64.',
  /** Texture X and Y count 32x32 cells; one past the image's edge has no pixels to draw. */
  cellOutside: (x: number, y: number, width: number, height: number) =>
    `Texture X and Y must point at a 32x32 cell of the image: cell (${x}, ${y}) lies outside the ${width}x${height} image.`,
  tooMany: `A server can have at most ${MAX_CUSTOM_ITEMS} custom items: delete one before adding another.`,
  /** items.dat ids are positions: a far id would fill the file with placeholders up to it. */
  idTooHigh: (id: number, max: number) =>
    `Item ID ${id} is too high: custom item IDs go up to ${max} (the item database's last ID plus ${MAX_CUSTOM_ITEMS}).`,
} as const;

/**
 * Why a texture's 32x32 cell (x, y) cannot be cut from an image of this size (x*32 and y*32 must fall
 * inside it, as the sprite is cut), or undefined when it can. The web checks before sending, the api again.
 */
export function textureCellProblem(x: number, y: number, image: { width: number; height: number }): string | undefined {
  if (x < 0 || y < 0 || x * 32 >= image.width || y * 32 >= image.height)
    return customItemsMessages.cellOutside(x, y, image.width, image.height);
  return undefined;
}

/**
 * The first problem of a custom item list in words a page can show: which item (its position from 1, and
 * its ID when it has one) and what is wrong, e.g. 'Item 3 (ID 340): Gems must be between 0 and 2147483647.'
 */
export function customItemsIssueMessage(error: z.ZodError, input: unknown): string {
  const issue = error.issues[0];
  if (!issue) return 'The custom item list is invalid.';
  const [key, index, field] = issue.path;
  if (key !== 'items' || typeof index !== 'number') return requestIssueMessage(error);
  const items = (input as { items?: unknown[] }).items ?? [];
  const id = (items[index] as { ID?: unknown } | undefined)?.ID;
  const which = `Item ${index + 1}${typeof id === 'number' ? ` (ID ${id})` : ''}`;
  return field === undefined
    ? `${which}: ${issue.message}`
    : `${which}: ${issue.message.replace(/^Invalid input.*/, `${String(field)} is invalid.`)}`;
}

/** GET /users/{id}/server/item-config answers custom-items.json; PUT takes the same shape. */
export const itemConfigSchema = z.unknown().transform((input, ctx) => {
  // The first problem only: a list of 1,000 wrong items has tens of thousands, and the page shows one.
  const parsed = safeParseFirst(customItemsFileSchema, input);
  if (parsed.success) return parsed.data;
  ctx.addIssue({ code: 'custom', message: customItemsIssueMessage(parsed.error, input) });
  return z.NEVER;
});
export type ItemConfig = z.infer<typeof itemConfigSchema>;

/** Largest uploaded texture side in pixels (a sprite sheet; an item sprite is a 32x32 cell of it). */
export const CUSTOM_TEXTURE_MAX_SIDE = 1024;

/**
 * Largest legitimate RTTEX upload in bytes: a one-mip RGBA RTTXTR of CUSTOM_TEXTURE_MAX_SIDE² (100-byte
 * header, 24-byte mip header) deflated with zlib's worst-case growth, in a 32-byte RTPACK header.
 */
export const CUSTOM_TEXTURE_MAX_BYTES = (() => {
  const raw = 124 + CUSTOM_TEXTURE_MAX_SIDE * CUSTOM_TEXTURE_MAX_SIDE * 4;
  return 32 + raw + (raw >> 12) + (raw >> 14) + (raw >> 25) + 64;
})();

/** The same as base64 characters. */
export const CUSTOM_TEXTURE_MAX_BASE64 = Math.ceil(CUSTOM_TEXTURE_MAX_BYTES / 3) * 4;

/** The optional Advanced Options of a texture item; only filled ones are sent (spec section 3). */
export const customTexturePropertiesSchema = customItemTextureSchema.omit({ file: true }).partial().strict();
export type CustomTextureProperties = z.infer<typeof customTexturePropertiesSchema>;

/** POST /users/{id}/server/custom-item. */
export const customItemCreateSchema = z.object({
  itemName: z.string().trim().min(1, customItemsMessages.fillAll).max(100, 'Item name must be at most 100 characters.'),
  rarity: boundedInt('Rarity', 1, 999),
  rttexBase64: z
    .string()
    .min(1, customItemsMessages.fillAll)
    .max(CUSTOM_TEXTURE_MAX_BASE64, 'The texture is too large.')
    .refine((s) => s.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(s), customItemsMessages.badBase64),
  properties: customTexturePropertiesSchema.default({}),
});
export type CustomItemCreate = z.input<typeof customItemCreateSchema>;

/** Answer of POST .../custom-item: the message, the new item's id and how it was applied (a save's answer). */
export const customItemCreatedSchema = configSaveResponseSchema.extend({ id: z.int() });
