// Building a server's effective items.dat: a base file plus the server's own items. items.dat ids are the
// record indexes (the client looks items up by position), so new ids are appended in order and any gap is
// filled with inert placeholder items.
import { ACTION_TYPE, type Item, KIND_ACTIONS } from './item.ts';
import type { ItemsDat } from './items-dat.ts';
import { createItem } from './items-schema.ts';

/** The look and behaviour of an item drawn from its own texture file. */
export interface ItemTextureSpec {
  /** The texture file name as the client fetches it from its cache (no path). */
  file: string;
  /** Proton hash of the file's bytes (0 when unknown). */
  hash: number;
  x: number;
  y: number;
  /** The panel's item kind (spec: 4 Solid Block, 7 Clothing, ...). */
  kind: number;
  clothingType: number;
  /** Hits to break; 0 means unbreakable. Stored x6 in one byte, so at most 42. */
  breakHits: number;
  /** Seconds. */
  growTime: number;
  /** 0 none, 1 full. */
  collisionType: number;
}

/** One item a server adds or changes. */
export interface ItemOverride {
  id: number;
  name: string;
  /** Stored in the `info` field (items.dat v22 and later). */
  description?: string;
  rarity: number;
  texture?: ItemTextureSpec;
}

/** The game's actionType for a panel item kind (the inverse of panelItemKind); block kinds are foreground. */
export function actionTypeOfKind(kind: number): number {
  return KIND_ACTIONS.find(([k]) => k === kind)?.[1] ?? ACTION_TYPE.foreground;
}

/** Highest id that may be added: items.dat ids are record positions and the panel's ids are u16. */
export const MAX_ITEM_ID = 65535;

function applyTexture(item: Item, texture: ItemTextureSpec): void {
  item.texture = texture.file;
  item.textureHash = texture.hash >>> 0;
  item.textureX = texture.x;
  item.textureY = texture.y;
  item.actionType = actionTypeOfKind(texture.kind);
  item.clothingType = texture.clothingType;
  item.breakHits = Math.min(42, Math.max(0, Math.round(texture.breakHits)));
  item.growTime = texture.growTime;
  item.collisionType = texture.collisionType;
}

function placeholder(id: number): Item {
  return createItem(id, { name: `Unused ${id}`, actionType: ACTION_TYPE.foreground, rarity: 999 });
}

/**
 * `base` with `overrides` applied: an id inside the base changes that item's name, description and rarity
 * (and its texture fields when given); a new id is appended, placeholders filling any gap before it.
 * The base is not modified. Throws on an id outside 0..MAX_ITEM_ID.
 */
export function buildItemsDat(base: ItemsDat, overrides: readonly ItemOverride[]): ItemsDat {
  const items = base.items.map((item) => ({ ...item }));
  const byId = new Map(items.map((item, index) => [item.id, index]));
  const sorted = [...overrides].sort((a, b) => a.id - b.id);
  for (const o of sorted) {
    if (!Number.isInteger(o.id) || o.id < 0 || o.id > MAX_ITEM_ID)
      throw new Error(`items.dat: item id ${o.id} is outside 0..${MAX_ITEM_ID}`);
    let index = byId.get(o.id);
    if (index === undefined) {
      // Append up to this id; base files are sequential, so the next id is the length.
      let next = items.length ? (items[items.length - 1] as Item).id + 1 : 0;
      while (next < o.id) {
        byId.set(next, items.length);
        items.push(placeholder(next++));
      }
      index = items.length;
      byId.set(o.id, index);
      items.push(createItem(o.id, { actionType: ACTION_TYPE.foreground, collisionType: 1, breakHits: 1 }));
    }
    const item = items[index] as Item;
    item.name = o.name;
    item.rarity = o.rarity;
    if (o.description !== undefined) item.info = o.description;
    if (o.texture) applyTexture(item, o.texture);
  }
  return { version: base.version, items };
}
