import type { NewbieKit, NewbieKitEntry } from '@canopy/contract';

/** The first entry of a kit (the one that counts), or a zero entry. */
export function kitEntry(kit: NewbieKit | undefined): NewbieKitEntry {
  return kit?.ITEMS[0] ?? { Gemss: 0, Coin: 0, Seasonals_Token: 0, items: [] };
}

/** A currency input's value: an integer, 0 when empty or not a number (spec section 5). */
export function parseCurrency(text: string): number {
  const n = Number.parseInt(text, 10);
  return Number.isFinite(n) && n > 0 ? n : 0;
}

/** A quantity input's value: a positive integer, else null ('Please enter a valid quantity.'). */
export function parseQuantity(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  const n = Number(trimmed);
  return Number.isSafeInteger(n) && n >= 1 && n <= 2_147_483_647 ? n : null;
}

/** Adds an item to the kit's items; one already there gets the quantity added to it (spec section 5). */
export function addKitItem(items: readonly [number, number][], id: number, qty: number): [number, number][] {
  const at = items.findIndex(([itemId]) => itemId === id);
  if (at < 0) return [...items, [id, qty]];
  return items.map(([itemId, count], i) => [itemId, i === at ? Math.min(2_147_483_647, count + qty) : count]);
}

/** Removes an item from the kit's items. */
export function removeKitItem(items: readonly [number, number][], id: number): [number, number][] {
  return items.filter(([itemId]) => itemId !== id);
}

/**
 * Items whose name contains the query (or whose id is it), at most `limit` (spec: 10 suggestions). The
 * closest come first: an exact name or id, then names that start with the query, then the rest in database
 * order; otherwise typing "rock" would list "Bedrock" above "Rock".
 */
export function searchKitItems<T extends { item_id: number; name: string }>(
  items: readonly T[],
  query: string,
  limit = 10,
): T[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return [];
  const exact: T[] = [];
  const prefix: T[] = [];
  const contains: T[] = [];
  for (const item of items) {
    const name = item.name.toLowerCase();
    if (name === needle || String(item.item_id) === needle) exact.push(item);
    else if (name.startsWith(needle)) {
      if (prefix.length < limit) prefix.push(item);
    } else if (name.includes(needle) && contains.length < limit) contains.push(item);
  }
  return [...exact, ...prefix, ...contains].slice(0, limit);
}
