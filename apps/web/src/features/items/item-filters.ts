// Pure logic of the Item Database page: the filter choices of spec section 9 and the query it sends.
import {
  clothingTypeLabels,
  type IpResponse,
  ITEM_RARITY_FILTER_MAX,
  ITEMS_PAGE_SIZE,
  itemKindLabels,
  itemMessages,
} from '@canopy/contract';

/** What the page filters by; numbers use the api's "any" values (rarity 0, clothing type and kind -1). */
export interface ItemFilters {
  name: string;
  rarity: number;
  clothingType: number;
  itemKind: number;
}

export const emptyItemFilters: ItemFilters = { name: '', rarity: 0, clothingType: -1, itemKind: -1 };

/** A choice of a filter's <select>. */
export interface FilterOption {
  value: number;
  label: string;
}

const fromLabels = (labels: Readonly<Record<number, string>>): FilterOption[] =>
  Object.entries(labels)
    .map(([value, label]) => ({ value: Number(value), label }))
    .sort((a, b) => a.value - b.value);

/** Rarity: Any (0), then 1 to 20. */
export const rarityOptions: FilterOption[] = [
  { value: 0, label: 'Any' },
  ...Array.from({ length: ITEM_RARITY_FILTER_MAX }, (_, i) => ({ value: i + 1, label: String(i + 1) })),
];
export const clothingTypeOptions = fromLabels(clothingTypeLabels);
export const itemKindOptions = fromLabels(itemKindLabels);

/** GET /items with only the parameters that narrow the search (the api's defaults mean "any"). */
export function itemsPath(filters: ItemFilters, page: number): string {
  const params = new URLSearchParams();
  const name = filters.name.trim();
  if (name) params.set('name', name);
  if (filters.rarity !== 0) params.set('rarity', String(filters.rarity));
  if (filters.clothingType !== -1) params.set('clothingType', String(filters.clothingType));
  if (filters.itemKind !== -1) params.set('itemKind', String(filters.itemKind));
  if (page > 1) params.set('page', String(page));
  const query = params.toString();
  return query ? `/items?${query}` : '/items';
}

/** Pages needed for `total` results (at least one, so an empty result still has "page 1 of 1"). */
export function itemPageCount(total: number, pageSize: number = ITEMS_PAGE_SIZE): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** The result line above the grid: "336 items", "1 item", "Showing 25–48 of 336 items". */
export function resultSummary(total: number, page: number, pageSize: number = ITEMS_PAGE_SIZE): string {
  const noun = total === 1 ? 'item' : 'items';
  if (total <= pageSize) return `${total} ${noun}`;
  const from = (page - 1) * pageSize + 1;
  return `Showing ${from}–${Math.min(total, page * pageSize)} of ${total} ${noun}`;
}

/** Labels of an item's kind and clothing type for the preview ("Clothing · Back"). */
export function describeItemKind(itemKind: number, clothingType: number): string {
  const kind = itemKindLabels[itemKind] ?? `Kind ${itemKind}`;
  return clothingType >= 0 ? `${kind} · ${clothingTypeLabels[clothingType] ?? clothingType}` : kind;
}

/** The IP out of GET /ip's answer, or the spec's error when the shape is wrong. */
export function readServerIp(body: unknown): { ip: string } | { error: string } {
  const ip = (body as Partial<IpResponse> | null)?.SERVER?.IP;
  return typeof ip === 'string' && ip.length > 0 ? { ip } : { error: itemMessages.ipInvalid };
}
