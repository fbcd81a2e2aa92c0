import { MAX_INVENTORY_ITEMS, WORLD_MAX_SIDE } from '@canopy/contract';

const KB = 1024;

/**
 * Body limit of every route that does not name one: the largest ordinary request (settings, a
 * collaborator, a player) is well under 2 KB, so 16 KB leaves room without inviting abuse.
 */
export const DEFAULT_BODY_LIMIT = 16 * KB;

// The widest tile a legitimate editor can send, as compact JSON with its separating comma.
const WIDEST_TILE = `${JSON.stringify({ fg: 65535, bg: 65535, o: 1, l: 1, fl: 0xffffffff, if_c: 0x7fffffff })},`;

/**
 * World PUT: the largest world the engine makes (WORLD_MAX_SIDE²) with every tile at its widest
 * values (about 2.8 MB), plus 25% for the few tiles that carry extra properties (signs, doors) and the
 * world's settings. Anything larger is not a world the panel could have produced.
 */
export const WORLD_PUT_BODY_LIMIT = Math.ceil((WORLD_MAX_SIDE * WORLD_MAX_SIDE * WIDEST_TILE.length * 1.25) / KB) * KB;

/** "16 KB" / "3.4 MB": a limit as the 413 message states it. */
export function formatBytes(bytes: number): string {
  return bytes >= 1024 * KB ? `${(bytes / 1024 / KB).toFixed(1)} MB` : `${Math.round(bytes / KB)} KB`;
}

/** Player PUT: a full inventory of widest entries ([65535,200]) plus 16 KB for the other fields and role flags. */
export const PLAYER_PUT_BODY_LIMIT = MAX_INVENTORY_ITEMS * '[65535,200],'.length + DEFAULT_BODY_LIMIT;
