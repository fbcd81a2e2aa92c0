import { z } from 'zod';
import {
  CREATOR_LIST_MAX,
  DEFAULT_AUTOFARM_DELAY_MS,
  emptyNewbieKitEntry,
  MAX_INVENTORY_ITEMS,
} from './engine-constants.ts';
import { customTextureNamePattern } from './items.ts';
import { boundedInt, itemIdSchema } from './world.ts';

// Defined in the zod-free module an idle engine loads (engine-constants.ts); exported here as before.
export {
  CREATOR_LIST_MAX,
  DEFAULT_AUTOFARM_DELAY_MS,
  defaultNewbieKit,
  defaultServerConfig,
  emptyNewbieKitEntry,
  engineConfigFiles,
} from './engine-constants.ts';

/** creators.json: the creator list, GrowIDs without duplicates (compared case-insensitively). */
export const creatorListSchema = z
  .array(
    z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9]{3,20}$/, 'Each creator must be a GrowID (3-20 letters or digits).'),
  )
  .max(CREATOR_LIST_MAX)
  .superRefine((names, ctx) => {
    const seen = new Set<string>();
    for (const [i, name] of names.entries()) {
      if (seen.has(name.toLowerCase()))
        ctx.addIssue({ code: 'custom', path: [i], message: `Duplicate creator "${name}".` });
      seen.add(name.toLowerCase());
    }
  });
export type CreatorList = z.infer<typeof creatorListSchema>;

/** server-config.json; unknown keys are ignored. */
export const serverConfigSchema = z.object({
  autofarmDelay: z
    .number({ error: 'Autofarm delay must be a valid number.' })
    .min(0, 'Autofarm delay must not be negative.')
    .max(3_600_000, 'Autofarm delay must be at most one hour (3600000 ms).')
    .default(DEFAULT_AUTOFARM_DELAY_MS),
});
export type ServerConfig = z.infer<typeof serverConfigSchema>;

const amount = z.int().min(0).max(2_147_483_647).default(0);

/** One entry of the newbie kit: starting currencies and [item id, quantity] pairs. */
export const newbieKitEntrySchema = z.object({
  Gemss: amount,
  Coin: amount,
  Seasonals_Token: amount,
  items: z
    .array(z.tuple([itemIdSchema, z.int().min(1, 'Please enter a valid quantity.')]))
    .max(MAX_INVENTORY_ITEMS, `A newbie kit holds at most ${MAX_INVENTORY_ITEMS} items (an inventory's size).`)
    .default([]),
});
export type NewbieKitEntry = z.infer<typeof newbieKitEntrySchema>;

/** newbie-kit.json; an empty ITEMS list is normalised to one entry of zeros. */
export const newbieKitSchema = z.object({
  ITEMS: z
    .array(newbieKitEntrySchema)
    .default([])
    .transform((entries) => (entries.length ? entries : [emptyNewbieKitEntry()])),
});
export type NewbieKit = z.infer<typeof newbieKitSchema>;

const int = (label: string) => boundedInt(label, 0, 2_147_483_647).default(0);
const flag = (label: string) => z.boolean({ error: `${label} must be true or false.` }).default(false);

/**
 * The texture of an item made on the Custom Textures tab: a file of the server's texture cache
 * (`<data-dir>/cache/<file>`, named by its content hash) and how the item uses it.
 */
export const customItemTextureSchema = z.object({
  file: z.string().regex(customTextureNamePattern, 'texture file must be a custom texture of this server.'),
  texture_x: boundedInt('Texture X', 0, 255).default(0),
  texture_y: boundedInt('Texture Y', 0, 255).default(0),
  /** The panel's item kinds (spec section 9): 4 Solid Block, 7 Clothing, ... */
  item_kind: boundedInt('Item kind', 0, 8).default(4),
  clothing_type: boundedInt('Clothing type', 0, 8).default(6),
  /** items.dat stores hits x 6 in one byte, so 42 is the most it can hold; 0 means unbreakable. */
  break_hits: boundedInt('Break hits', 0, 42).default(0),
  grow_time: boundedInt('Grow time', 0, 2_147_483_647).default(0),
  collision_type: boundedInt('Collision type', 0, 1).default(1),
});
export type CustomItemTexture = z.infer<typeof customItemTextureSchema>;

/** Most [item id, count] pairs in one custom item's Extra_Drops. */
export const MAX_EXTRA_DROPS = 20;

/** One custom item definition (spec section 3) with the spec's defaults. */
export const customItemSchema = z.object({
  ID: itemIdSchema,
  Name: z
    .string()
    .trim()
    .min(1, 'Name must not be empty.')
    .max(100, 'Name must be at most 100 characters.')
    .default('New Item'),
  Desc: z.string().max(1000, 'Desc must be at most 1000 characters.').default('A new custom item.'),
  rarity: boundedInt('Rarity', 1, 999).default(1),
  Bonus: int('Bonus'),
  Change_Drop_Seeds: int('Change_Drop_Seeds'),
  Gems: int('Gems'),
  Item_Price: int('Item_Price'),
  Far_Punch: int('Far_Punch'),
  Punch_Hit: int('Punch_Hit'),
  Punch_Id: int('Punch_Id'),
  Punch_Place: int('Punch_Place'),
  Xp: int('Xp'),
  Extra_Drops: z
    .array(z.tuple([itemIdSchema, boundedInt('Extra drop count', 1, 200)]))
    .max(MAX_EXTRA_DROPS, `At most ${MAX_EXTRA_DROPS} extra drops.`)
    .default([]),
  property_blacklist: flag('property_blacklist'),
  property_blocked: flag('property_blocked'),
  property_farmable: flag('property_farmable'),
  property_gacha: flag('property_gacha'),
  property_unobtainable: flag('property_unobtainable'),
  property_untradeable: flag('property_untradeable'),
  /** Only items made from an uploaded PNG have one (not in the spec's field list; kept through edits). */
  texture: customItemTextureSchema.optional(),
});
export type CustomItem = z.infer<typeof customItemSchema>;

/** Most custom items a server may define (bounds custom-items.json and the save request). */
export const MAX_CUSTOM_ITEMS = 1000;

/** custom-items.json; item IDs are unique. */
export const customItemsFileSchema = z.object({
  items: z
    .array(customItemSchema)
    .max(MAX_CUSTOM_ITEMS, `At most ${MAX_CUSTOM_ITEMS} custom items.`)
    .default([])
    .superRefine((items, ctx) => {
      const seen = new Set<number>();
      for (const [i, item] of items.entries()) {
        if (seen.has(item.ID))
          ctx.addIssue({ code: 'custom', path: [i, 'ID'], message: `Duplicate custom item ID ${item.ID}.` });
        seen.add(item.ID);
      }
    }),
});
export type CustomItemsFile = z.infer<typeof customItemsFileSchema>;

/** A new custom item with the spec's defaults; its ID is the highest existing one plus 1. */
export function newCustomItem(existing: readonly Pick<CustomItem, 'ID'>[], firstId = 1): CustomItem {
  const ID = existing.reduce((max, item) => Math.max(max, item.ID + 1), firstId);
  return customItemSchema.parse({ ID });
}
