// The searchable in-memory form of an item database, and a server's custom items laid over it. Pure: no I/O.
import { type CustomItem, ITEMS_PAGE_SIZE, type Item, type ItemsQuery } from '@canopy/contract';
import { actionTypeOfKind, ITEM_KIND, panelItemKind } from '@canopy/formats';

/**
 * Items sorted by id, laid out for searching without allocating per item: the filtered fields in typed
 * arrays and every lower-cased name in one string, so a name search is a few native indexOf scans.
 */
export interface ItemCatalog {
  readonly items: readonly Item[];
  /** GET /all-items' shape, built once per catalog. */
  readonly names: readonly { item_id: number; name: string }[];
  readonly ids: Int32Array;
  readonly rarity: Int32Array;
  readonly kind: Int32Array;
  readonly clothing: Int32Array;
  /** '\n' + each lower-cased name + '\n' (newlines inside names become spaces). */
  readonly text: string;
  /** Where item i's name starts in `text`. */
  readonly starts: Int32Array;
}

/** Builds a catalog from items in any order (later duplicates of an id win). */
export function catalogOf(source: Iterable<Item>): ItemCatalog {
  const byId = new Map<number, Item>();
  for (const item of source) byId.set(item.id, item);
  const items = [...byId.values()].sort((a, b) => a.id - b.id);
  const starts = new Int32Array(items.length);
  const parts: string[] = [];
  let at = 1;
  for (const [i, item] of items.entries()) {
    starts[i] = at;
    const name = item.name.toLowerCase().replaceAll('\n', ' ');
    parts.push(name);
    at += name.length + 1;
  }
  return {
    items,
    names: items.map((i) => ({ item_id: i.id, name: i.name })),
    ids: Int32Array.from(items, (i) => i.id),
    rarity: Int32Array.from(items, (i) => i.rarity),
    kind: Int32Array.from(items, (i) => i.item_kind),
    clothing: Int32Array.from(items, (i) => i.clothing_type),
    text: `\n${parts.join('\n')}\n`,
    starts,
  };
}

/**
 * The base catalog with a server's custom items: an ID inside the base overrides its name and rarity (and
 * sprite when it has a texture); a new ID is a new item (a Solid Block without a sprite unless textured).
 */
export function overlay(base: ItemCatalog, custom: readonly CustomItem[]): ItemCatalog {
  if (custom.length === 0) return base;
  const byId = new Map(base.items.map((item) => [item.id, item]));
  for (const c of custom) {
    const was = byId.get(c.ID);
    const item: Item = was
      ? { ...was, name: c.Name, rarity: c.rarity }
      : {
          id: c.ID,
          name: c.Name,
          rarity: c.rarity,
          clothing_type: -1,
          // What the engine appends for a new id (formats' buildItemsDat): a foreground players stand on.
          item_kind: ITEM_KIND.solidBlock,
          texture: '',
          texture_x: 0,
          texture_y: 0,
        };
    const t = c.texture;
    if (t) {
      // The kind the engine's items.dat will give it (the stored kind and collision decide it together).
      const kind = panelItemKind({ actionType: actionTypeOfKind(t.item_kind), collisionType: t.collision_type });
      Object.assign(item, {
        texture: t.file,
        texture_x: t.texture_x,
        texture_y: t.texture_y,
        item_kind: kind,
        clothing_type: kind === ITEM_KIND.clothing ? t.clothing_type : -1,
      });
    }
    byId.set(c.ID, item);
  }
  return catalogOf(byId.values());
}

/** Indexes of the items whose name contains `needle` (lower-case, no newline), ascending. */
function nameMatches(c: ItemCatalog, needle: string): number[] {
  const found: number[] = [];
  let i = 0;
  for (let pos = c.text.indexOf(needle); pos !== -1; ) {
    while (i + 1 < c.starts.length && (c.starts[i + 1] as number) <= pos) i++;
    found.push(i);
    if (i + 1 >= c.starts.length) break;
    pos = c.text.indexOf(needle, c.starts[i + 1]);
  }
  return found;
}

/** The index of the item with this id, or -1 (ids are sorted). */
function indexOfId(c: ItemCatalog, id: number): number {
  let lo = 0;
  let hi = c.ids.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const at = c.ids[mid] as number;
    if (at === id) return mid;
    if (at < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** One page of the items matching the query, and how many match in all. */
export function searchCatalog(c: ItemCatalog, q: ItemsQuery): { items: Item[]; total: number } {
  const needle = q.name.toLowerCase();
  let candidates: number[] | null = null; // null: every item
  if (needle) {
    candidates = needle.includes('\n') ? [] : nameMatches(c, needle);
    // A number also finds the item with that id, so "2" finds Dirt (id 2) as well as names containing 2.
    const byId = /^\d{1,10}$/.test(needle) ? indexOfId(c, Number(needle)) : -1;
    if (byId !== -1 && !candidates.includes(byId)) candidates = [...candidates, byId].sort((a, b) => a - b);
  }
  const from = (q.page - 1) * ITEMS_PAGE_SIZE;
  const to = from + ITEMS_PAGE_SIZE;
  const items: Item[] = [];
  let total = 0;
  const count = candidates ? candidates.length : c.items.length;
  for (let k = 0; k < count; k++) {
    const i = candidates ? (candidates[k] as number) : k;
    if (q.rarity !== 0 && c.rarity[i] !== q.rarity) continue;
    if (q.itemKind !== -1 && c.kind[i] !== q.itemKind) continue;
    if (q.clothingType !== -1 && c.clothing[i] !== q.clothingType) continue;
    if (total >= from && total < to) items.push(c.items[i] as Item);
    total++;
  }
  return { items, total };
}
