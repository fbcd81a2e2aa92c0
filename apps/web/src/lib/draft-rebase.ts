import type { JsonObject } from './json-draft.ts';

// A save refused because the world or player changed since the editor opened it (409, ADR 0035) offers Reload:
// the latest version is fetched and the user's unsaved changes are put back on top of it, field by field, so
// that neither the game's change nor the user's edit is lost. What cannot be put back simply (a list of tiles
// whose size changed) is not guessed at: the editor asks before it discards the unsaved changes.

/** The draft on top of the latest version, or `simple: false` when the changes cannot be put back field by field. */
export type Rebase = { simple: true; draft: JsonObject } | { simple: false };

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Tiles by position: the user's tile where they changed it, the latest one elsewhere; lengths must match. */
function rebaseByIndex(base: unknown[], mine: unknown[], theirs: unknown[]): unknown[] | null {
  if (base.length !== mine.length || base.length !== theirs.length) return null;
  return theirs.map((tile, i) => (same(mine[i], base[i]) ? tile : mine[i]));
}

type Slot = [number, number];
const isSlots = (v: unknown): v is Slot[] =>
  Array.isArray(v) && v.every((s) => Array.isArray(s) && typeof s[0] === 'number' && typeof s[1] === 'number');

/**
 * An inventory by item id: a count the user changed (or an item they added or removed) is theirs to keep, every
 * other item is as the latest version has it (the game took or gave some meanwhile).
 */
function rebaseInventory(base: Slot[], mine: Slot[], theirs: Slot[]): Slot[] {
  const count = (slots: Slot[]) => new Map(slots.map(([id, n]) => [id, n]));
  const [b, m] = [count(base), count(mine)];
  const result: Slot[] = [];
  const seen = new Set<number>();
  for (const [id, n] of theirs) {
    seen.add(id);
    if (b.get(id) === m.get(id)) result.push([id, n]);
    else if (m.has(id)) result.push([id, m.get(id) as number]);
    // Removed by the user: stays removed.
  }
  for (const [id, n] of mine) if (!seen.has(id) && b.get(id) !== n) result.push([id, n]);
  return result;
}

/**
 * Puts the changes the user made to `base` (the version the editor opened, `mine` its draft) on top of `theirs`
 * (the latest version): a field the user did not change takes the latest value, one they changed keeps theirs;
 * `blocks` and `inventory` are merged entry by entry. `version` is always the latest one.
 */
export function rebaseDraft(base: JsonObject, mine: JsonObject, theirs: JsonObject): Rebase {
  const draft: JsonObject = {};
  for (const key of new Set([...Object.keys(theirs), ...Object.keys(mine)])) {
    const [b, m, t] = [base[key], mine[key], theirs[key]];
    if (key === 'version' || same(m, b)) {
      if (key in theirs) draft[key] = t;
    } else if (key === 'blocks' && Array.isArray(b) && Array.isArray(m) && Array.isArray(t)) {
      const blocks = rebaseByIndex(b, m, t);
      if (!blocks) return { simple: false };
      draft[key] = blocks;
    } else if (key === 'inventory' && isSlots(b) && isSlots(m) && isSlots(t)) {
      draft[key] = rebaseInventory(b, m, t);
    } else if (key in mine) draft[key] = m;
  }
  return { simple: true, draft };
}

/** The keys whose values differ between a draft and the version it started from (what Reload puts back). */
export function changedKeys(base: JsonObject, draft: JsonObject): string[] {
  return [...new Set([...Object.keys(base), ...Object.keys(draft)])].filter(
    (key) => key !== 'version' && !same(base[key], draft[key]),
  );
}
