// One items.dat entry, field for field, plus the projection the panel's Item Database shows.

/** An items.dat entry; fields after `reserved` exist only from the version noted and are ignored below it. */
export interface Item {
  id: number;
  editableType: number;
  itemCategory: number;
  /** The game's item type; see ACTION_TYPE. */
  actionType: number;
  hitSoundType: number;
  name: string;
  texture: string;
  /** u32; Proton hash of the texture file. */
  textureHash: number;
  /** The byte the domain notes call itemKind (a visual effect type); not the panel's item_kind. */
  itemKind: number;
  val1: number;
  textureX: number;
  textureY: number;
  spreadType: number;
  isStripeyWallpaper: number;
  collisionType: number;
  /** Hits to break; the file stores this times 6 in one byte, so values are multiples of 1/6 up to 42.5. */
  breakHits: number;
  dropChance: number;
  /** 0 Hat, 1 Shirt, 2 Pants, 3 Shoes, 4 Face, 5 Hand, 6 Back, 7 Hair, 8 Neck (0 on non-clothing items). */
  clothingType: number;
  rarity: number;
  maxAmount: number;
  extraFile: string;
  /** u32 */
  extraFileHash: number;
  audioVolume: number;
  petName: string;
  petPrefix: string;
  petSuffix: string;
  petAbility: string;
  seedBase: number;
  seedOverlay: number;
  treeBase: number;
  treeLeaves: number;
  /** u32 ARGB */
  seedColor: number;
  /** u32 ARGB */
  seedOverlayColor: number;
  ingredient: number;
  growTime: number;
  val2: number;
  isRayman: number;
  extraOptions: string;
  texture2: string;
  extraOptions2: string;
  /** 80 opaque bytes kept verbatim. */
  reserved: Uint8Array;
  punchOptions: string; // v11
  v12Int: number; // v12
  v12Bytes: Uint8Array; // v12, 9 bytes
  lightRange: number; // v13
  v14Int: number; // v14
  canSit: number; // v15
  playerOffsetX: number;
  playerOffsetY: number;
  chairTextureX: number;
  chairTextureY: number;
  chairLegOffsetX: number;
  chairLegOffsetY: number;
  chairTexture: string;
  itemRenderer: string; // v16
  v17Int: number; // v17
  v18Int: number; // v18
  v19Bytes: Uint8Array; // v19, 9 bytes
  v21Short: number; // v21
  info: string; // v22
  recipe: [number, number]; // v23, two u16
  v24Byte: number; // v24
  v25String: string; // v25
  v25Int: number; // v25, u32
  v26Byte: number; // v26
}

/** The panel's Item entity (spec section 3), with the enumerations of spec section 9. */
export interface ItemSummary {
  id: number;
  name: string;
  rarity: number;
  clothing_type: number;
  item_kind: number;
  texture: string;
  texture_x: number;
  texture_y: number;
}

/** The game's actionType values the generator uses and panelItemKind reads. */
export const ACTION_TYPE = {
  fist: 0,
  wrench: 1,
  door: 2,
  lock: 3,
  consumable: 8,
  sign: 10,
  mainDoor: 13,
  bedrock: 15,
  lava: 16,
  foreground: 17,
  background: 18,
  seed: 19,
  clothes: 20,
} as const;

/** The panel's item kinds (spec section 9); -1 means "any" in filters. */
export const ITEM_KIND = {
  fist: 0,
  wrench: 1,
  consumable: 2,
  seed: 3,
  solidBlock: 4,
  background: 5,
  foreground: 6,
  clothing: 7,
  lock: 8,
} as const;

/** Panel item kinds that stand for exactly one game actionType (the block kinds depend on collision). */
export const KIND_ACTIONS: readonly (readonly [kind: number, actionType: number])[] = [
  [ITEM_KIND.fist, ACTION_TYPE.fist],
  [ITEM_KIND.wrench, ACTION_TYPE.wrench],
  [ITEM_KIND.consumable, ACTION_TYPE.consumable],
  [ITEM_KIND.seed, ACTION_TYPE.seed],
  [ITEM_KIND.background, ACTION_TYPE.background],
  [ITEM_KIND.clothing, ACTION_TYPE.clothes],
  [ITEM_KIND.lock, ACTION_TYPE.lock],
];

/** The panel's item kind, derived from the game's actionType, and from collision for the other block types. */
export function panelItemKind(item: Pick<Item, 'actionType' | 'collisionType'>): number {
  const pair = KIND_ACTIONS.find(([, action]) => action === item.actionType);
  if (pair) return pair[0];
  // Plain blocks (17) and special ones (bedrock, doors, signs...): those players stand on are solid blocks.
  return item.collisionType === 1 ? ITEM_KIND.solidBlock : ITEM_KIND.foreground;
}

/** The spec's Item; clothing_type is -1 for non-clothing so that a Hat filter does not match every block. */
export function toItemSummary(item: Item): ItemSummary {
  const kind = panelItemKind(item);
  return {
    id: item.id,
    name: item.name,
    rarity: item.rarity,
    clothing_type: kind === ITEM_KIND.clothing ? item.clothingType : -1,
    item_kind: kind,
    texture: item.texture,
    texture_x: item.textureX,
    texture_y: item.textureY,
  };
}
