// Pure rules of the Custom Items and Custom Textures tabs (server-management document, sections 3, 5 and 9).
import {
  type CustomItem,
  type CustomTextureProperties,
  customItemCreateSchema,
  customItemSchema,
  customItemsMessages,
  customItemTextureSchema,
  textureCellProblem,
} from '@canopy/contract';

/** Custom items per page (spec section 9). */
export const CUSTOM_ITEMS_PAGE_SIZE = 5;

/** The numeric fields of a custom item, in the order the card shows them. */
export const CUSTOM_ITEM_NUMBER_FIELDS = [
  'ID',
  'rarity',
  'Bonus',
  'Change_Drop_Seeds',
  'Gems',
  'Item_Price',
  'Far_Punch',
  'Punch_Hit',
  'Punch_Id',
  'Punch_Place',
  'Xp',
] as const satisfies readonly (keyof CustomItem)[];

/** The six property_* flags. */
export const CUSTOM_ITEM_FLAGS = [
  'property_blacklist',
  'property_blocked',
  'property_farmable',
  'property_gacha',
  'property_unobtainable',
  'property_untradeable',
] as const satisfies readonly (keyof CustomItem)[];

/** A numeric field as typed: parsed as an integer, 0 when it is not one (spec section 5). */
export function parseIntOrZero(text: string): number {
  const n = Number.parseInt(text.trim(), 10);
  return Number.isFinite(n) ? n : 0;
}

/** True for an item still named 'New Item' (one added and not yet edited). */
export const isUneditedNewItem = (item: Pick<CustomItem, 'Name'>) => item.Name.trim() === 'New Item';

/**
 * A new item with the spec's defaults and ID = highest existing id (item database and custom items) + 1,
 * or the spec's refusal while an unedited 'New Item' exists.
 */
export function addNewItem(
  items: readonly CustomItem[],
  databaseIds: Iterable<number>,
): { ok: true; item: CustomItem } | { ok: false; error: string } {
  if (items.some(isUneditedNewItem)) return { ok: false, error: customItemsMessages.oneNewItem };
  let highest = -1;
  for (const id of databaseIds) highest = Math.max(highest, id);
  for (const item of items) highest = Math.max(highest, item.ID);
  return { ok: true, item: customItemSchema.parse({ ID: highest + 1 }) };
}

/** Items whose name or id matches the search (case-insensitive); the index into the full list is kept. */
export function searchCustomItems(items: readonly CustomItem[], search: string): { item: CustomItem; index: number }[] {
  const q = search.trim().toLowerCase();
  const all = items.map((item, index) => ({ item, index }));
  if (!q) return all;
  return all.filter(({ item }) => item.Name.toLowerCase().includes(q) || String(item.ID) === q);
}

/** The Advanced Options as typed; an empty field is left out (spec: only filled numeric ones are sent). */
export type AdvancedOptions = Record<keyof CustomTextureProperties, string>;

/**
 * The spec's defaults of the Advanced Options, read from the contract's texture schema so the page and the
 * api cannot disagree; break hits and grow time start empty (left out of the payload unless typed).
 */
export const defaultAdvancedOptions = (): AdvancedOptions => {
  const d = customItemTextureSchema.omit({ file: true }).parse({});
  return {
    texture_x: String(d.texture_x),
    texture_y: String(d.texture_y),
    clothing_type: String(d.clothing_type),
    item_kind: String(d.item_kind),
    break_hits: '',
    grow_time: '',
    collision_type: String(d.collision_type),
  };
};

/** The properties object of the creation payload: only the filled numeric options. */
export function textureProperties(options: AdvancedOptions): CustomTextureProperties {
  const out: Record<string, number> = {};
  for (const [key, value] of Object.entries(options)) {
    const text = value.trim();
    if (text !== '' && /^-?\d+$/.test(text)) out[key] = Number(text);
  }
  return out as CustomTextureProperties;
}

/**
 * Rarity of a texture item: 1 to 999, default 999. An empty field is one of the required fields (the spec's
 * 'Please fill all fields...'); anything else that is not a rarity gets the contract's precise text
 * ('Rarity must be between 1 and 999.', 'Rarity must be a whole number.').
 */
export function textureRarity(text: string): { ok: true; rarity: number } | { ok: false; error: string } {
  const typed = text.trim();
  if (typed === '') return { ok: false, error: customItemsMessages.fillAll };
  const parsed = customItemCreateSchema.shape.rarity.safeParse(Number(typed));
  if (parsed.success) return { ok: true, rarity: parsed.data };
  return { ok: false, error: parsed.error.issues[0]?.message ?? customItemsMessages.fillAll };
}

/**
 * Why the options' texture cell cannot be cut from an image of this size (x*32 and y*32 must fall inside
 * it, as the sprite is cut), or undefined when it can. An empty X or Y counts as the default 0.
 */
export function textureCellError(
  options: Pick<AdvancedOptions, 'texture_x' | 'texture_y'>,
  image: { width: number; height: number },
): string | undefined {
  const { texture_x: x = 0, texture_y: y = 0 } = textureProperties({ ...defaultAdvancedOptions(), ...options });
  return textureCellProblem(x, y, image);
}
