import { ITEM } from '../../items/item-ids.ts';
import { ACTION } from './item-actions.ts';

/** World data version the engine writes (docs/game-protocol.md, "World data"). */
export const WORLD_DATA_VERSION = 0x14;
/** World flags a working reference server sends with that version. */
export const WORLD_FLAGS = 0x40;
/** Tile flags bits: the tile's extra data follows its 8 bytes; a door anyone may enter. */
export const TILE_HAS_EXTRA = 0x0001;
export const TILE_PUBLIC = 0x0080;
/** Extra data kinds (the first byte of a tile's extra data). */
export const EXTRA = { door: 1, sign: 2, lock: 3, seed: 4 } as const;
/** `u16 baseWeather` 41: no weather machine. */
export const WEATHER_NONE = 41;

/** What the world data (tank type 4) is built from. */
export interface WorldView {
  name: string;
  width: number;
  height: number;
  fg: Uint16Array;
  bg: Uint16Array;
}

/** After the tile count and after the tiles: zero bytes the real client reads past. */
const GAP_AFTER_COUNT = 5;
const GAP_AFTER_TILES = 12;
/** `u16 baseWeather; u16 (0 for no weather); u32 0; u32 0`. */
const WEATHER_SIZE = 12;
const EXIT = Buffer.from('EXIT', 'latin1');

/**
 * The extra data a foreground needs. The real client reads extra data for doors and locks whatever the tile's
 * flags say, so every tile of those types carries it (blank: no label, no owner), not only the main door.
 */
function extraOf(fg: number, actionOf: (id: number) => number | undefined): Buffer | undefined {
  if (fg === ITEM.mainDoor) return Buffer.from([EXTRA.door, EXIT.length, 0, ...EXIT, 0]); // label EXIT, open
  const action = actionOf(fg);
  if (action === ACTION.door || action === ACTION.mainDoor) return Buffer.from([EXTRA.door, 0, 0, 0]);
  if (action === ACTION.sign) return Buffer.from([EXTRA.sign, 0, 0, 0xff, 0xff, 0xff, 0xff]); // no text, i32 -1
  // settings, owner user id, access count (0), then 8 bytes the client skips
  if (action === ACTION.lock) return Buffer.alloc(1 + 1 + 4 + 4 + 8, 0).fill(EXTRA.lock, 0, 1);
  if (action === ACTION.seed) return Buffer.from([EXTRA.seed, 0, 0, 0, 0, 0]); // planted 0 s ago, no fruit
  return undefined;
}

/**
 * The layout the real client reads (docs/game-protocol.md, "World data"): `u16 version; u32 flags; u16 nameLength;
 * name; u32 width; u32 height; u32 tileCount;` 5 zero bytes; per tile (row-major) `u16 fg; u16 bg; u16 parent;
 * u16 flags` and its extra data when it has some; 12 zero bytes; `u32 droppedCount (0); u32 lastDroppedUid (0)`;
 * the 12-byte weather trailer. `actionOf` gives an item's items.dat action type (which tiles need extra data).
 */
export function encodeWorldData(w: WorldView, actionOf: (id: number) => number | undefined = () => undefined): Buffer {
  const name = Buffer.from(w.name, 'latin1');
  const tiles = w.width * w.height;
  const extras = new Map<number, Buffer>();
  let extraBytes = 0;
  for (let i = 0; i < tiles; i++) {
    const fg = w.fg[i] ?? 0;
    if (fg === 0) continue;
    const extra = extraOf(fg, actionOf);
    if (!extra) continue;
    extras.set(i, extra);
    extraBytes += extra.length;
  }
  const head = 2 + 4 + 2 + name.length + 12;
  const out = Buffer.alloc(head + GAP_AFTER_COUNT + tiles * 8 + extraBytes + GAP_AFTER_TILES + 8 + WEATHER_SIZE);
  let at = out.writeUInt16LE(WORLD_DATA_VERSION, 0);
  at = out.writeUInt32LE(WORLD_FLAGS, at);
  at = out.writeUInt16LE(name.length, at);
  at += name.copy(out, at);
  at = out.writeUInt32LE(w.width, at);
  at = out.writeUInt32LE(w.height, at);
  at = out.writeUInt32LE(tiles, at);
  at += GAP_AFTER_COUNT;
  for (let i = 0; i < tiles; i++) {
    const extra = extras.get(i);
    at = out.writeUInt16LE(w.fg[i] ?? 0, at);
    at = out.writeUInt16LE(w.bg[i] ?? 0, at);
    at = out.writeUInt16LE(0, at); // parent: no lock owns the tile
    at = out.writeUInt16LE(extra ? TILE_HAS_EXTRA | (extra[0] === EXTRA.door ? TILE_PUBLIC : 0) : 0, at);
    if (extra) at += extra.copy(out, at);
  }
  at += GAP_AFTER_TILES;
  at += 8; // droppedCount and lastDroppedUid: no dropped objects
  out.writeUInt16LE(WEATHER_NONE, at);
  return out; // the rest of the weather trailer is zero
}
