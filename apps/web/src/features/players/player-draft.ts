import { MAX_STACK, playerFlagPattern, playerRoles, playerTitles } from '@canopy/contract';
import { asArray, type JsonObject } from '../../lib/json-draft.ts';

/** One inventory row as the editor shows it. */
export type InventoryRow = [itemId: number, count: number];

/**
 * The Role.* and Title.* switches of the editor: the contract's roles and titles, then any other
 * flag the record holds, roles before titles.
 */
export function flagKeys(draft: JsonObject): string[] {
  const keys = new Set<string>([...playerRoles.map((r) => `Role.${r}`), ...playerTitles.map((t) => `Title.${t}`)]);
  for (const key of Object.keys(draft)) if (playerFlagPattern.test(key)) keys.add(key);
  const all = [...keys];
  return [...all.filter((k) => k.startsWith('Role.')), ...all.filter((k) => k.startsWith('Title.'))];
}

/** The label of a flag key: 'Role.VIP' reads 'VIP'. */
export function flagLabel(key: string): string {
  return key.slice(key.indexOf('.') + 1);
}

/** The draft's inventory as pairs (malformed entries are left out of the view, not of the draft). */
export function inventoryRows(draft: JsonObject): { row: InventoryRow; index: number }[] {
  return asArray(draft.inventory).flatMap((entry, index) =>
    Array.isArray(entry) && typeof entry[0] === 'number' && typeof entry[1] === 'number'
      ? [{ row: [entry[0], entry[1]] as InventoryRow, index }]
      : [],
  );
}

/** The inventory with `count` of an item added; an item already held gets the count added, up to MAX_STACK. */
export function addInventoryItem(inventory: readonly unknown[], itemId: number, count: number): unknown[] {
  const at = inventory.findIndex((e) => Array.isArray(e) && e[0] === itemId);
  if (at === -1) return [...inventory, [itemId, Math.min(count, MAX_STACK)]];
  return inventory.map((e, i) =>
    i === at && Array.isArray(e) ? [itemId, Math.min((Number(e[1]) || 0) + count, MAX_STACK)] : e,
  );
}

/** The inventory with the count of entry `index` replaced. */
export function setInventoryCount(inventory: readonly unknown[], index: number, count: number): unknown[] {
  return inventory.map((e, i) => (i === index && Array.isArray(e) ? [e[0], count] : e));
}

/** The inventory without entry `index`. */
export function removeInventoryEntry(inventory: readonly unknown[], index: number): unknown[] {
  return inventory.filter((_, i) => i !== index);
}

/**
 * The player body to validate and send. The ban state goes only when the draft changed it: an
 * unchanged value is left out so that saving other fields never undoes a ban made meanwhile.
 */
export function playerBody(draft: JsonObject, loaded: { banned: boolean }): JsonObject {
  if (draft.banned !== loaded.banned) return draft;
  const { banned: _unchanged, ...rest } = draft;
  return rest;
}

/** Up to `limit` items whose name contains the query (case-insensitive) or whose id is the query. */
export function searchItems<T extends { item_id: number; name: string }>(
  items: readonly T[],
  query: string,
  limit = 8,
): T[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return [];
  const result: T[] = [];
  for (const item of items) {
    if (String(item.item_id) === needle || item.name.toLowerCase().includes(needle)) result.push(item);
    if (result.length >= limit) break;
  }
  return result;
}
