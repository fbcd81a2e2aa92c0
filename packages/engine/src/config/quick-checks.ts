import type { CreatorList, CustomItemsFile, NewbieKit, ServerConfig } from '@canopy/contract/engine';
import {
  CREATOR_LIST_MAX,
  DEFAULT_AUTOFARM_DELAY_MS,
  emptyNewbieKitEntry,
  MAX_INVENTORY_ITEMS,
} from '@canopy/contract/engine-constants';

// Hand-written accepts for the config files' usual content, so that an engine reading them at start does not
// load zod (about 9 MB per engine, docs/decisions/0024-lean-engine.md). Each returns what the contract's schema
// would give, or undefined when it cannot be sure; then the schema decides (and words any refusal). They may
// refuse a valid file (the schema accepts it), never accept one the schema refuses.

type Json = Record<string, unknown>;
// zod's defaults stand in for a missing key only, not for null: hence `=== undefined`, never `??`.
const orDefault = <T>(value: unknown, fallback: T) => (value === undefined ? fallback : value);
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const intIn = (v: unknown, min: number, max: number): v is number =>
  Number.isSafeInteger(v) && (v as number) >= min && (v as number) <= max;
const INT32_MAX = 2_147_483_647;

/** creators.json: GrowIDs with no surrounding spaces (so trimming changes nothing) and no duplicates. */
export function quickCreators(json: unknown): CreatorList | undefined {
  if (!Array.isArray(json) || json.length > CREATOR_LIST_MAX) return undefined;
  const seen = new Set<string>();
  for (const name of json) {
    if (typeof name !== 'string' || !/^[A-Za-z0-9]{3,20}$/.test(name) || seen.has(name.toLowerCase())) return undefined;
    seen.add(name.toLowerCase());
  }
  return [...(json as string[])];
}

/** server-config.json: an object whose autofarmDelay is missing or 0..3600000 (other keys are dropped). */
export function quickServerConfig(json: unknown): ServerConfig | undefined {
  if (!isObject(json)) return undefined;
  const delay = orDefault(json.autofarmDelay, DEFAULT_AUTOFARM_DELAY_MS);
  if (typeof delay !== 'number' || !Number.isFinite(delay) || delay < 0 || delay > 3_600_000) return undefined;
  return { autofarmDelay: delay };
}

/** newbie-kit.json: entries of whole-number currencies and [item id, quantity] pairs; no entries is one of zeros. */
export function quickNewbieKit(json: unknown): NewbieKit | undefined {
  if (!isObject(json)) return undefined;
  const entries = orDefault(json.ITEMS, []);
  if (!Array.isArray(entries)) return undefined;
  const kit: NewbieKit = { ITEMS: [] };
  for (const entry of entries) {
    if (!isObject(entry)) return undefined;
    const { Gemss = 0, Coin = 0, Seasonals_Token = 0, items = [] } = entry;
    if (!intIn(Gemss, 0, INT32_MAX) || !intIn(Coin, 0, INT32_MAX) || !intIn(Seasonals_Token, 0, INT32_MAX))
      return undefined;
    if (!Array.isArray(items) || items.length > MAX_INVENTORY_ITEMS) return undefined;
    const pairs: [number, number][] = [];
    for (const pair of items) {
      if (!Array.isArray(pair) || pair.length !== 2) return undefined;
      const [id, quantity] = pair;
      if (!intIn(id, 0, 65535) || !intIn(quantity, 1, Number.MAX_SAFE_INTEGER)) return undefined;
      pairs.push([id, quantity]);
    }
    kit.ITEMS.push({ Gemss, Coin, Seasonals_Token, items: pairs });
  }
  if (kit.ITEMS.length === 0) kit.ITEMS.push(emptyNewbieKitEntry());
  return kit;
}

/** custom-items.json with no items (a server that never made one); any item is left to the schema. */
export function quickCustomItems(json: unknown): CustomItemsFile | undefined {
  if (!isObject(json)) return undefined;
  const items = orDefault(json.items, []);
  return Array.isArray(items) && items.length === 0 ? { items: [] } : undefined;
}
