// Item Database (spec 1: sections 2.10, 3 Item, 7 /items /ip /cache, 9 filters) shared by api and web.
import { z } from 'zod';

/** Results per page of GET /items (the spec leaves the page size open). */
export const ITEMS_PAGE_SIZE = 24;
/** Longest name query accepted; item names are far shorter. */
export const ITEM_NAME_QUERY_MAX = 100;
/** Item sprites are 32x32 cells drawn at 96x96. */
export const ITEM_SPRITE_SIZE = 32;
export const ITEM_SPRITE_DRAWN_SIZE = 96;
/** Highest rarity of the filter (0 means any). */
export const ITEM_RARITY_FILTER_MAX = 20;

/** Clothing types of the filter (spec section 9); -1 is "any". */
export const clothingTypeLabels: Readonly<Record<number, string>> = {
  [-1]: 'Any',
  0: 'Hat',
  1: 'Shirt',
  2: 'Pants',
  3: 'Shoes',
  4: 'Face',
  5: 'Hand',
  6: 'Back',
  7: 'Hair',
  8: 'Neck',
};

/** Item kinds of the filter (spec section 9); -1 is "any". */
export const itemKindLabels: Readonly<Record<number, string>> = {
  [-1]: 'Any',
  0: 'Fist',
  1: 'Wrench',
  2: 'Consumable',
  3: 'Seed',
  4: 'Solid Block',
  5: 'Background',
  6: 'Foreground',
  7: 'Clothing',
  8: 'Lock',
};

/** Texts of the Item Database page (spec section 8). */
export const itemMessages = {
  fetchFailed: 'Failed to fetch items.',
  ipFetchFailed: 'Could not fetch server IP.',
  ipInvalid: 'Invalid IP data format.',
  ipError: 'Error',
  noItems: 'No items found.',
  textureFailed: 'Could not load the item sprite.',
  textureNotFound: 'Texture not found.',
} as const;

/** The spec's Item (section 3). */
export const itemSchema = z.object({
  id: z.int(),
  name: z.string(),
  rarity: z.int(),
  clothing_type: z.int(),
  item_kind: z.int(),
  texture: z.string(),
  texture_x: z.int(),
  texture_y: z.int(),
});
export type Item = z.infer<typeof itemSchema>;

/** An integer query parameter in [min, max], absent meaning `fallback`; the message names the parameter. */
const intParam = (name: string, min: number, max: number, fallback: number, meaning: string) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return fallback;
      const n = /^-?\d{1,6}$/.test(v) ? Number(v) : Number.NaN;
      if (Number.isInteger(n) && n >= min && n <= max) return n;
      ctx.addIssue({ code: 'custom', message: `${name} must be an integer from ${min} to ${max} (${meaning}).` });
      return z.NEVER;
    });

/** Query of GET /items; every parameter is optional and bad values get a message naming the parameter. */
export const itemsQuerySchema = z.object({
  name: z
    .string()
    .max(ITEM_NAME_QUERY_MAX, `name must be at most ${ITEM_NAME_QUERY_MAX} characters.`)
    .optional()
    .transform((v) => (v ?? '').trim()),
  rarity: intParam('rarity', 0, ITEM_RARITY_FILTER_MAX, 0, '0 means any'),
  clothingType: intParam('clothingType', -1, 8, -1, '-1 means any'),
  itemKind: intParam('itemKind', -1, 8, -1, '-1 means any'),
  page: intParam('page', 1, 100_000, 1, 'pages start at 1'),
});
export type ItemsQuery = z.infer<typeof itemsQuerySchema>;
/** Answer of GET /items: one page of matches and how many match in all. */
export const itemsPageSchema = z.object({
  items: z.array(itemSchema),
  total: z.int().min(0),
  page: z.int().min(1),
  pageSize: z.int().min(1),
});
export type ItemsPage = z.infer<typeof itemsPageSchema>;

/** Answer of GET /ip: the address game clients connect to. */
export const ipResponseSchema = z.object({ SERVER: z.object({ IP: z.string().min(1) }) });
export type IpResponse = z.infer<typeof ipResponseSchema>;

/** A texture of the bundled or operator item database (`tiles_page1.rttex`); no path separators, no dot files. */
export const baseTextureNamePattern = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}\.rttex$/;
/** A texture made on the Custom Textures tab, named by its content hash. */
export const customTextureNamePattern = /^custom_[0-9a-f]{16}\.rttex$/;
