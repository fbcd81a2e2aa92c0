import type { WorldListRow } from '@canopy/contract';

/** Page size of the worlds table (spec section 9). */
export const WORLDS_PAGE_SIZE = 10;

/** The worlds whose name or owner contains `search`, case-insensitively (all of them for a blank search). */
export function filterWorlds(worlds: readonly WorldListRow[], search: string): WorldListRow[] {
  const needle = search.trim().toLowerCase();
  if (!needle) return [...worlds];
  return worlds.filter((w) => w.name.toLowerCase().includes(needle) || w.owner.toLowerCase().includes(needle));
}

/** The list with one world's locked flag set (the lock toggle's optimistic update). */
export function withWorldLocked(worlds: readonly WorldListRow[], name: string, locked: boolean): WorldListRow[] {
  return worlds.map((w) => (w.name === name ? { ...w, locked } : w));
}
