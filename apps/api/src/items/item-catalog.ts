// The searchable in-memory form of an item database, and a server's custom items laid over it. Pure: no I/O.
import { type CustomItem, ITEMS_PAGE_SIZE, type Item, type ItemsQuery } from '@canopy/contract';

interface Entry {
  item: Item;
  /** Lower-cased name, computed once so a search does no allocation per item. */
  name: string;
}

/** Items sorted by id, ready to search. */
export interface ItemCatalog {
  readonly entries: readonly Entry[];
  /** GET /all-items' shape, built once per catalog. */
  readonly names: readonly { item_id: number; name: string }[];
}

/** Builds a catalog from items in any order (later duplicates of an id win). */
export function catalogOf(items: Iterable<Item>): ItemCatalog {
  const byId = new Map<number, Item>();
  for (const item of items) byId.set(item.id, item);
  const entries = [...byId.values()]
    .sort((a, b) => a.id - b.id)
    .map((item) => ({ item, name: item.name.toLowerCase() }));
  return { entries, names: entries.map((e) => ({ item_id: e.item.id, name: e.item.name })) };
}

// The Custom Textures tab stores the panel's kind (4 Solid Block, 7 Clothing); other values show as Foreground.
const KIND_CLOTHING = 7;
const KIND_SOLID_BLOCK = 4;
const KIND_FOREGROUND = 6;

/**
 * The base catalog with a server's custom items: an ID inside the base overrides its name and rarity (and
 * sprite when it has a texture); a new ID is a new item (a Solid Block without a sprite unless textured).
 */
export function overlay(base: ItemCatalog, custom: readonly CustomItem[]): ItemCatalog {
  if (custom.length === 0) return base;
  const byId = new Map(base.entries.map((e) => [e.item.id, e.item]));
  for (const c of custom) {
    const was = byId.get(c.ID);
    const item: Item = was
      ? { ...was, name: c.Name, rarity: c.rarity }
      : {
          id: c.ID,
          name: c.Name,
          rarity: c.rarity,
          clothing_type: -1,
          item_kind: KIND_SOLID_BLOCK,
          texture: '',
          texture_x: 0,
          texture_y: 0,
        };
    const t = c.texture;
    if (t) {
      const kind = t.item_kind <= 8 ? t.item_kind : KIND_FOREGROUND;
      Object.assign(item, {
        texture: t.file,
        texture_x: t.texture_x,
        texture_y: t.texture_y,
        item_kind: kind,
        clothing_type: kind === KIND_CLOTHING ? t.clothing_type : -1,
      });
    }
    byId.set(c.ID, item);
  }
  return catalogOf(byId.values());
}

/** One page of the items matching the query, and how many match in all. */
export function searchCatalog(catalog: ItemCatalog, q: ItemsQuery): { items: Item[]; total: number } {
  const needle = q.name.toLowerCase();
  // A number also finds the item with that id, so "2" finds Dirt (id 2) as well as names containing 2.
  const id = /^\d{1,10}$/.test(needle) ? Number(needle) : -1;
  const from = (q.page - 1) * ITEMS_PAGE_SIZE;
  const to = from + ITEMS_PAGE_SIZE;
  const items: Item[] = [];
  let total = 0;
  for (const e of catalog.entries) {
    const it = e.item;
    if (q.rarity !== 0 && it.rarity !== q.rarity) continue;
    if (q.itemKind !== -1 && it.item_kind !== q.itemKind) continue;
    if (q.clothingType !== -1 && it.clothing_type !== q.clothingType) continue;
    if (needle && it.id !== id && !e.name.includes(needle)) continue;
    if (total >= from && total < to) items.push(it);
    total++;
  }
  return { items, total };
}
