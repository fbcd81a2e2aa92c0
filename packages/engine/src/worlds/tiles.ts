import type { WorldBlock } from '@canopy/contract/engine';

// node:zlib on first use: an idle engine that created no world and read none does not need it (about 0.3 MB).
const zlib = () => process.getBuiltinModule('node:zlib');

/** A world's tiles as parallel columns, the form the game loop and the sample generator work in. */
export interface TileColumns {
  count: number;
  fg: Uint16Array;
  bg: Uint16Array;
  o: Uint8Array;
  l: Uint8Array;
  fl: Uint32Array;
  ifc: Uint32Array;
  /** Extra per-tile properties (tile index → key → value); most tiles have none. */
  extras: Map<number, Record<string, number | string>>;
}

const FORMAT = 1;
let scratch = Buffer.allocUnsafe(0);
const BASE_KEYS = new Set(['fg', 'bg', 'o', 'l', 'fl', 'if_c']);

/** Empty (all-zero) columns for `count` tiles. */
export function emptyColumns(count: number): TileColumns {
  return {
    count,
    fg: new Uint16Array(count),
    bg: new Uint16Array(count),
    o: new Uint8Array(count),
    l: new Uint8Array(count),
    fl: new Uint32Array(count),
    ifc: new Uint32Array(count),
    extras: new Map(),
  };
}

/** Columns from the blocks of a validated world. */
export function blocksToColumns(blocks: readonly WorldBlock[]): TileColumns {
  const c = emptyColumns(blocks.length);
  blocks.forEach((block, i) => {
    c.fg[i] = block.fg;
    c.bg[i] = block.bg;
    c.o[i] = block.o;
    c.l[i] = block.l;
    c.fl[i] = block.fl;
    c.ifc[i] = block.if_c;
    let extra: Record<string, number | string> | undefined;
    for (const key in block) {
      if (BASE_KEYS.has(key)) continue;
      extra ??= {};
      extra[key] = (block as Record<string, unknown>)[key] as number | string;
    }
    if (extra) c.extras.set(i, extra);
  });
  return c;
}

/** The blocks of the world detail, in tile order. */
export function columnsToBlocks(c: TileColumns): WorldBlock[] {
  const blocks: WorldBlock[] = new Array(c.count);
  for (let i = 0; i < c.count; i++) {
    const block: WorldBlock = {
      fg: c.fg[i] as number,
      bg: c.bg[i] as number,
      o: c.o[i] as 0 | 1,
      l: c.l[i] as 0 | 1,
      fl: c.fl[i] as number,
      if_c: c.ifc[i] as number,
    };
    const extra = c.extras.get(i);
    blocks[i] = extra ? Object.assign(block, extra) : block;
  }
  return blocks;
}

/**
 * Packs columns into the stored blob: a format byte, then raw-deflated
 * `u32 count | fg u16[] | bg u16[] | o u8[] | l u8[] | fl u32[] | if_c u32[] | u32 n | extras JSON`,
 * little-endian. Column order compresses well: a column of mostly dirt is one long run.
 */
export function encodeTiles(c: TileColumns, level = 6): Uint8Array {
  const extras = c.extras.size ? Buffer.from(JSON.stringify([...c.extras])) : Buffer.alloc(0);
  const size = 4 + c.count * (2 + 2 + 1 + 1 + 4 + 4) + 4 + extras.length;
  // One scratch buffer for every encode: a fresh 84 KB buffer per world saved would leave the
  // garbage collector (and malloc) with megabytes to reclaim on every burst of saves.
  if (scratch.length < size) scratch = Buffer.allocUnsafe(Math.max(size, scratch.length * 2));
  const raw = scratch.subarray(0, size);
  let at = raw.writeUInt32LE(c.count, 0);
  for (const column of [c.fg, c.bg, c.o, c.l, c.fl, c.ifc]) {
    // Typed arrays are little-endian on every platform Node supports, so the bytes copy as they are.
    raw.set(new Uint8Array(column.buffer, column.byteOffset, column.byteLength), at);
    at += column.byteLength;
  }
  at = raw.writeUInt32LE(extras.length, at);
  raw.set(extras, at);
  const packed = zlib().deflateRawSync(raw, { level });
  const out = new Uint8Array(packed.length + 1);
  out[0] = FORMAT;
  out.set(packed, 1);
  return out;
}

/** Unpacks a blob written by encodeTiles. */
export function decodeTiles(blob: Uint8Array): TileColumns {
  if (blob[0] !== FORMAT) throw new Error(`Unknown tile format ${blob[0]}`);
  const raw = zlib().inflateRawSync(blob.subarray(1));
  const count = raw.readUInt32LE(0);
  const c = emptyColumns(count);
  let at = 4;
  for (const column of [c.fg, c.bg, c.o, c.l, c.fl, c.ifc]) {
    new Uint8Array(column.buffer).set(raw.subarray(at, at + column.byteLength));
    at += column.byteLength;
  }
  const extrasLength = raw.readUInt32LE(at);
  if (extrasLength) {
    const list = JSON.parse(raw.subarray(at + 4, at + 4 + extrasLength).toString()) as [
      number,
      Record<string, number | string>,
    ][];
    c.extras = new Map(list);
  }
  return c;
}
