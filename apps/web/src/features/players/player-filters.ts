import type { PlayerListRow } from '@canopy/contract';

/** Page size of the players table (spec section 9). */
export const PLAYERS_PAGE_SIZE = 10;

/** The filter bar's values as typed ('' means no filter; role '' is 'All Roles'). */
export interface PlayerFilters {
  search: string;
  minLevel: string;
  minGems: string;
  role: string;
}

export const noPlayerFilters: PlayerFilters = { search: '', minLevel: '', minGems: '', role: '' };

/** A Min Level / Min Gems entry as a bound, or null when it is blank or not a number. */
export function minimumOf(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const n = Number(trimmed);
  return Number.isFinite(n) ? n : null;
}

/**
 * The players that pass the filter bar (spec section 5): the name contains the search
 * case-insensitively, level and gems are at least the minimums, and the role is held.
 */
export function filterPlayers(players: readonly PlayerListRow[], filters: PlayerFilters): PlayerListRow[] {
  const needle = filters.search.trim().toLowerCase();
  const minLevel = minimumOf(filters.minLevel);
  const minGems = minimumOf(filters.minGems);
  return players.filter(
    (p) =>
      (!needle || p.name.toLowerCase().includes(needle)) &&
      (minLevel === null || p.level >= minLevel) &&
      (minGems === null || p.gems >= minGems) &&
      (!filters.role || p.roles.includes(filters.role)),
  );
}

/** The roles the dropdown offers after 'All Roles': every role some player holds, sorted. */
export function roleOptions(players: readonly PlayerListRow[]): string[] {
  return [...new Set(players.flatMap((p) => p.roles))].sort((a, b) => a.localeCompare(b));
}

/** The empty-table text: none on the server at all, or none left by the filters; null when rows remain. */
export function emptyPlayersReason(total: number, shown: number): 'none' | 'filtered' | null {
  if (shown > 0) return null;
  return total === 0 ? 'none' : 'filtered';
}
