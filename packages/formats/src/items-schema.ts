// The items.dat record layout as data: one table drives both decoding and encoding, so the two cannot
// drift apart. Order and version gates follow /work/shared/docs/gtps-domain.md.
import type { Item } from './item.ts';

/** How one field is stored. `name` is a string obfuscated with the item id; `hits` is a u8 holding hits x 6. */
export type FieldKind =
  | 'u8'
  | 'u16'
  | 'i16'
  | 'u32'
  | 'i32'
  | 'str'
  | 'name'
  | 'hits'
  | 'bytes80'
  | 'bytes9'
  | 'recipe';

/** A field: the Item key, its storage kind, and the first items.dat version that has it (absent = all). */
export type FieldSpec = readonly [key: keyof Item, kind: FieldKind, since?: number];

/** The newest items.dat version whose layout this package knows. */
export const LATEST_ITEMS_DAT_VERSION = 26;

/** From this version on, names are XOR-obfuscated (older files store them in clear). */
export const NAME_OBFUSCATION_SINCE = 3;

/** Every field of an item record, in file order. */
export const ITEM_FIELDS: readonly FieldSpec[] = [
  ['id', 'i32'],
  ['editableType', 'u8'],
  ['itemCategory', 'u8'],
  ['actionType', 'u8'],
  ['hitSoundType', 'u8'],
  ['name', 'name'],
  ['texture', 'str'],
  ['textureHash', 'u32'],
  ['itemKind', 'u8'],
  ['val1', 'i32'],
  ['textureX', 'u8'],
  ['textureY', 'u8'],
  ['spreadType', 'u8'],
  ['isStripeyWallpaper', 'u8'],
  ['collisionType', 'u8'],
  ['breakHits', 'hits'],
  ['dropChance', 'i32'],
  ['clothingType', 'u8'],
  ['rarity', 'i16'],
  ['maxAmount', 'u8'],
  ['extraFile', 'str'],
  ['extraFileHash', 'u32'],
  ['audioVolume', 'i32'],
  ['petName', 'str'],
  ['petPrefix', 'str'],
  ['petSuffix', 'str'],
  ['petAbility', 'str'],
  ['seedBase', 'u8'],
  ['seedOverlay', 'u8'],
  ['treeBase', 'u8'],
  ['treeLeaves', 'u8'],
  ['seedColor', 'u32'],
  ['seedOverlayColor', 'u32'],
  ['ingredient', 'i32'],
  ['growTime', 'i32'],
  ['val2', 'i16'],
  ['isRayman', 'i16'],
  ['extraOptions', 'str'],
  ['texture2', 'str'],
  ['extraOptions2', 'str'],
  ['reserved', 'bytes80'],
  ['punchOptions', 'str', 11],
  ['v12Int', 'i32', 12],
  ['v12Bytes', 'bytes9', 12],
  ['lightRange', 'i32', 13],
  ['v14Int', 'i32', 14],
  ['canSit', 'u8', 15],
  ['playerOffsetX', 'i32', 15],
  ['playerOffsetY', 'i32', 15],
  ['chairTextureX', 'i32', 15],
  ['chairTextureY', 'i32', 15],
  ['chairLegOffsetX', 'i32', 15],
  ['chairLegOffsetY', 'i32', 15],
  ['chairTexture', 'str', 15],
  ['itemRenderer', 'str', 16],
  ['v17Int', 'i32', 17],
  ['v18Int', 'i32', 18],
  ['v19Bytes', 'bytes9', 19],
  ['v21Short', 'i16', 21],
  ['info', 'str', 22],
  ['recipe', 'recipe', 23],
  ['v24Byte', 'u8', 24],
  ['v25String', 'str', 25],
  ['v25Int', 'u32', 25],
  ['v26Byte', 'u8', 26],
];

/** The value a field has when the file version lacks it, or when an item is built by hand. */
export function defaultFieldValue(kind: FieldKind): Item[keyof Item] {
  switch (kind) {
    case 'str':
    case 'name':
      return '';
    case 'bytes80':
      return new Uint8Array(80);
    case 'bytes9':
      return new Uint8Array(9);
    case 'recipe':
      return [0, 0];
    default:
      return 0;
  }
}

/** An item with every field zeroed or empty except those given, for building files by hand. */
export function createItem(id: number, fields: Partial<Item> = {}): Item {
  const item: Record<string, unknown> = {};
  for (const [key, kind] of ITEM_FIELDS) item[key] = defaultFieldValue(kind);
  return { ...(item as unknown as Item), id, ...fields };
}
