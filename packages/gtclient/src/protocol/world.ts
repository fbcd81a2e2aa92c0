// World data (tank type 4, "send map data") and inventory (tank type 9), the layouts of docs/game-protocol.md.

export interface WorldTile {
  fg: number;
  bg: number;
  parent: number;
  flags: number;
}

export interface WorldData {
  version: number;
  flags: number;
  name: string;
  width: number;
  height: number;
  /** Row-major: tile (x, y) is tiles[y * width + x]. */
  tiles: WorldTile[];
}

/** Reads world data up to the tiles (what follows varies with client versions); null when truncated. */
export function decodeWorld(data: Buffer): WorldData | null {
  if (data.length < 8) return null;
  const version = data.readUInt16LE(0);
  const flags = data.readUInt32LE(2);
  const nameLength = data.readUInt16LE(6);
  let p = 8;
  if (data.length - p < nameLength + 12) return null;
  const name = data.toString('utf8', p, p + nameLength);
  p += nameLength;
  const width = data.readUInt32LE(p);
  const height = data.readUInt32LE(p + 4);
  const count = data.readUInt32LE(p + 8);
  p += 12;
  if (count !== width * height || (data.length - p) / 8 < count) return null;
  const tiles: WorldTile[] = new Array(count);
  for (let i = 0; i < count; i++, p += 8) {
    tiles[i] = {
      fg: data.readUInt16LE(p),
      bg: data.readUInt16LE(p + 2),
      parent: data.readUInt16LE(p + 4),
      flags: data.readUInt16LE(p + 6),
    };
  }
  return { version, flags, name, width, height, tiles };
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
