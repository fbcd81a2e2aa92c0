/** World data version the engine writes (docs/game-protocol.md, step 8). */
export const WORLD_DATA_VERSION = 0x14;

/** What the world data (tank type 4) is built from. */
export interface WorldView {
  name: string;
  width: number;
  height: number;
  fg: Uint16Array;
  bg: Uint16Array;
}

/**
 * `u16 version; u32 flags; u16 nameLength; name; u32 width; u32 height; u32 tileCount;` then per tile
 * (row-major) `u16 fg; u16 bg; u16 parent; u16 flags`, then `u32 droppedCount; u32 lastDroppedId`.
 */
export function encodeWorldData(w: WorldView): Buffer {
  const name = Buffer.from(w.name, 'latin1');
  const tiles = w.width * w.height;
  const out = Buffer.alloc(2 + 4 + 2 + name.length + 12 + tiles * 8 + 8);
  let at = out.writeUInt16LE(WORLD_DATA_VERSION, 0);
  at = out.writeUInt32LE(0, at);
  at = out.writeUInt16LE(name.length, at);
  at += name.copy(out, at);
  at = out.writeUInt32LE(w.width, at);
  at = out.writeUInt32LE(w.height, at);
  at = out.writeUInt32LE(tiles, at);
  for (let i = 0; i < tiles; i++) {
    at = out.writeUInt16LE(w.fg[i] ?? 0, at);
    at = out.writeUInt16LE(w.bg[i] ?? 0, at);
    at += 4; // parent and flags stay zero
  }
  return out; // dropped count and last dropped id: the zeroed tail
}
