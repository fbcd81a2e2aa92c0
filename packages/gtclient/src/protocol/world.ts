// World data (tank type 4, "send map data") as the real client 5.51 reads it, and inventory (tank type 9).
// Layout: domain notes, "Packets" (corrected 2026-11-26) and the reference facts (see the README's table).
// The decode is strict: it must end exactly at the end of the data, so a server writing another layout fails here.

import { DecodeError, Reader } from './reader.ts';

/** Tile flag bits the client acts on while reading (ref facts §2, "Tile flag bits": GTProxy, GrowServer). */
export const TileFlag = {
  /** The tile's extra data (door label, sign text, lock...) follows its 8 bytes. */
  extraData: 0x0001,
  /** A u16 index of the lock that owns the tile follows its 8 bytes (before any extra data). */
  locked: 0x0002,
} as const;

/**
 * Foregrounds whose extra data follows even without flag 0x0001: the real client decides by item type (door, lock,
 * vending, display block), and the real server leaves the flag off for those (ref facts §2, GTProxy). Without
 * parsing items.dat this client knows the main door (6) and the small, big, huge and world locks (202, 204, 206,
 * 242).
 */
export const ITEMS_WITH_EXTRA: ReadonlySet<number> = new Set([6, 202, 204, 206, 242]);

/** Kinds of tile extra data this client can read (ref facts §2, "Other extra kinds"). */
const TileExtraKind = {
  door: 1,
  sign: 2,
  lock: 3,
  seed: 4,
  dice: 8,
  provider: 9,
  displayBlock: 0x17,
  vending: 0x18,
} as const;

export type TileExtra =
  /** `str label; u8 flags` (0 public, 8 locked); the main door carries `EXIT`. */
  | { kind: 'door'; label: string; flags: number }
  /** `str text; i32 -1`. */
  | { kind: 'sign'; label: string; end: number }
  /** `u8 settings; u32 owner; u32 n; n x u32 access; 8 bytes` (+16 for the guild lock 5814). */
  | { kind: 'lock'; settings: number; owner: number; access: number[] }
  | { kind: 'seed'; age: number; fruit: number }
  | { kind: 'dice'; number: number }
  | { kind: 'provider'; age: number }
  | { kind: 'displayBlock'; itemId: number }
  | { kind: 'vending'; itemId: number; price: number };

/** The main door's extra data, for callers that look for it by name. */
export type DoorExtra = Extract<TileExtra, { kind: 'door' }>;

export interface WorldTile {
  fg: number;
  bg: number;
  parent: number;
  flags: number;
  /** Present when the tile is locked (flag 0x0002). */
  lockIndex?: number;
  /** Present when the tile carries extra data (flag 0x0001, or a door or lock foreground). */
  extra?: TileExtra;
}

/** An item lying in the world: `u16 id; f32 x; f32 y; u8 amount; u8 flags; u32 uid`. */
export interface DroppedObject {
  id: number;
  x: number;
  y: number;
  amount: number;
  flags: number;
  uid: number;
}

/**
 * The 12-byte trailer after the dropped objects: `u16 base weather (41 = none); u16 flag; u16 current weather`,
 * then 6 bytes no reference gives a meaning (GrowServer writes zeros; GrowDocs: unknown).
 */
export interface Weather {
  base: number;
  flag: number;
  current: number;
}

export interface WorldData {
  version: number;
  flags: number;
  name: string;
  width: number;
  height: number;
  /** Row-major: tile (x, y) is tiles[y * width + x]. */
  tiles: WorldTile[];
  /** Doors (tiles with door extra data), in tile order; the main door's label is `EXIT`. */
  doors: { x: number; y: number; label: string }[];
  dropped: { lastUid: number; objects: DroppedObject[] };
  weather: Weather;
}

/** Bytes of zeros after the tile count, after the tiles, and the weather trailer's size. */
const WORLD_GAP_AFTER_COUNT = 5;
const WORLD_GAP_AFTER_TILES = 12;
const WEATHER_TRAILER_SIZE = 12;
const DROPPED_OBJECT_SIZE = 16;

/**
 * Reads tile `index`'s extra data at `pos` of world data (the layouts decodeWorld reads): the extra and the offset
 * after it. Throws a DecodeError when the kind is unknown or the data ends too soon.
 */
export function readTileExtra(
  data: Buffer,
  pos: number,
  index: number,
  fg: number,
  version: number,
): { extra: TileExtra; end: number } {
  const r = new Reader(data, 'world data');
  r.pos = pos;
  const extra = readExtra(r, index, fg, version);
  return { extra, end: r.pos };
}

function readExtra(r: Reader, index: number, fg: number, version: number): TileExtra {
  const at = `tile ${index} extra`;
  const kind = r.u8(`${at} kind`);
  switch (kind) {
    case TileExtraKind.door:
      return { kind: 'door', label: r.str16(`${at} door label`), flags: r.u8(`${at} door flags`) };
    case TileExtraKind.sign:
      return { kind: 'sign', label: r.str16(`${at} sign text`), end: r.i32(`${at} sign end`) };
    case TileExtraKind.lock: {
      const settings = r.u8(`${at} lock settings`);
      const owner = r.u32(`${at} lock owner`);
      const n = r.u32(`${at} lock access count`);
      r.need(n * 4, `${at} lock access list`);
      const access: number[] = [];
      for (let i = 0; i < n; i++) access.push(r.u32(`${at} lock access ${i}`));
      r.need(fg === 5814 ? 24 : 8, `${at} lock trailer`);
      r.pos += fg === 5814 ? 24 : 8;
      return { kind: 'lock', settings, owner, access };
    }
    case TileExtraKind.seed:
      return { kind: 'seed', age: r.u32(`${at} seed age`), fruit: r.u8(`${at} seed fruit`) };
    case TileExtraKind.dice:
      return { kind: 'dice', number: r.u8(`${at} dice`) };
    case TileExtraKind.provider: {
      const age = r.u32(`${at} provider age`);
      if (fg === 5318 || (fg === 10656 && version >= 17)) r.u32(`${at} provider extra`);
      return { kind: 'provider', age };
    }
    case TileExtraKind.displayBlock:
      return { kind: 'displayBlock', itemId: r.u32(`${at} display item`) };
    case TileExtraKind.vending:
      return { kind: 'vending', itemId: r.u32(`${at} vending item`), price: r.i32(`${at} vending price`) };
    default:
      throw new DecodeError(
        `world data: tile ${index} (fg ${fg}) carries extra data of kind ${kind}, which this client cannot read (known: 1 door, 2 sign, 3 lock, 4 seed, 8 dice, 9 provider, 0x17 display block, 0x18 vending)`,
      );
  }
}

/**
 * Reads world data with the real layout: header, u32 tile count, 5 zero bytes, tiles (8 bytes each plus a lock
 * index and extra data when their flags or foreground say so), 12 zero bytes, dropped objects, weather trailer. Throws a
 * DecodeError naming the field when the data is short, a gap is not zero, an extra kind is unknown, or bytes are
 * left over.
 */
export function decodeWorld(data: Buffer): WorldData {
  const r = new Reader(data, 'world data');
  const version = r.u16('version');
  const flags = r.u32('flags');
  const name = r.str16('name');
  const width = r.u32('width');
  const height = r.u32('height');
  const count = r.u32('tile count');
  if (count !== width * height) {
    throw new DecodeError(`world data: tile count ${count} is not width x height (${width} x ${height})`);
  }
  r.zeros(WORLD_GAP_AFTER_COUNT, 'gap after the tile count');
  // Each tile is at least 8 bytes: refuse a count the data cannot hold before allocating for it.
  r.need(count * 8, `${count} tiles`);
  const tiles: WorldTile[] = new Array(count);
  const doors: WorldData['doors'] = [];
  const d = r.data;
  for (let i = 0; i < count; i++) {
    r.need(8, `tile ${i}`);
    const p = r.pos;
    const tile: WorldTile = {
      fg: d.readUInt16LE(p),
      bg: d.readUInt16LE(p + 2),
      parent: d.readUInt16LE(p + 4),
      flags: d.readUInt16LE(p + 6),
    };
    r.pos = p + 8;
    if (tile.flags & TileFlag.locked) tile.lockIndex = r.u16(`tile ${i} lock index`);
    if (tile.flags & TileFlag.extraData || ITEMS_WITH_EXTRA.has(tile.fg)) {
      const extra = readExtra(r, i, tile.fg, version);
      tile.extra = extra;
      if (extra.kind === 'door') doors.push({ x: i % width, y: Math.floor(i / width), label: extra.label });
    }
    tiles[i] = tile;
  }
  r.zeros(WORLD_GAP_AFTER_TILES, 'gap after the tiles');
  const droppedCount = r.u32('dropped object count');
  const lastUid = r.u32('last dropped uid');
  r.need(droppedCount * DROPPED_OBJECT_SIZE, `${droppedCount} dropped objects`);
  const objects: DroppedObject[] = [];
  for (let i = 0; i < droppedCount; i++) {
    objects.push({
      id: r.u16(`dropped ${i} id`),
      x: r.f32(`dropped ${i} x`),
      y: r.f32(`dropped ${i} y`),
      amount: r.u8(`dropped ${i} amount`),
      flags: r.u8(`dropped ${i} flags`),
      uid: r.u32(`dropped ${i} uid`),
    });
  }
  const weather = { base: r.u16('base weather'), flag: r.u16('weather flag'), current: r.u16('current weather') };
  r.need(WEATHER_TRAILER_SIZE - 6, 'weather trailer');
  r.pos += WEATHER_TRAILER_SIZE - 6;
  // GURO appends ~1000 zero bytes the real client ignores; we do not: a world that does not end here is refused,
  // so a server whose layout drifted fails loudly.
  r.end();
  return { version, flags, name, width, height, tiles, doors, dropped: { lastUid, objects }, weather };
}

export interface InventoryItem {
  id: number;
  amount: number;
  flags: number;
}

export interface Inventory {
  version: number;
  backpackSize: number;
  items: InventoryItem[];
}

/** Reads inventory data: u8 version, u32 backpackSize, u16 count, then (u16 id, u8 amount, u8 flags) each. */
export function decodeInventory(data: Buffer): Inventory | null {
  if (data.length < 7) return null;
  const version = data.readUInt8(0);
  const backpackSize = data.readUInt32LE(1);
  const count = data.readUInt16LE(5);
  if (data.length - 7 < count * 4) return null;
  const items: InventoryItem[] = [];
  for (let i = 0, p = 7; i < count; i++, p += 4) {
    items.push({ id: data.readUInt16LE(p), amount: data.readUInt8(p + 2), flags: data.readUInt8(p + 3) });
  }
  return { version, backpackSize, items };
}
