// items.dat decoding and encoding. Every field is kept (opaque ones as raw bytes) so that
// decode -> encode gives back the exact input bytes.
import { ByteReader, ByteWriter } from './bytes.ts';
import type { Item } from './item.ts';
import {
  defaultFieldValue,
  type FieldKind,
  ITEM_FIELDS,
  LATEST_ITEMS_DAT_VERSION,
  NAME_OBFUSCATION_SINCE,
} from './items-schema.ts';

/** A whole items.dat file. */
export interface ItemsDat {
  version: number;
  items: Item[];
}

const NAME_KEY = 'PBG892FXX982ABC*';

/** The XOR mask for byte `i` of item `id`'s name. */
export function nameKeyByte(id: number, i: number): number {
  // ids are non-negative in practice; the double modulo keeps a negative id from indexing out of range.
  return NAME_KEY.charCodeAt((((id + i) % 16) + 16) % 16);
}

const FIXED_SIZE: Record<FieldKind, number> = {
  u8: 1,
  hits: 1,
  u16: 2,
  i16: 2,
  str: 2,
  name: 2,
  u32: 4,
  i32: 4,
  recipe: 4,
  bytes9: 9,
  bytes80: 80,
};

function checkVersion(version: number): void {
  if (!Number.isInteger(version) || version < 1 || version > LATEST_ITEMS_DAT_VERSION) {
    throw new Error(`items.dat: unsupported version ${version} (supported 1..${LATEST_ITEMS_DAT_VERSION})`);
  }
}

/** The smallest possible record for `version` (all strings empty), used to reject absurd item counts early. */
export function minItemSize(version: number): number {
  let size = 0;
  for (const [, kind, since] of ITEM_FIELDS) if (!since || version >= since) size += FIXED_SIZE[kind];
  return size;
}

/** Which item a field belongs to, for the name obfuscation. */
interface Context {
  id: number;
  obfuscated: boolean;
}

const nameMask = (ctx: Context) => (ctx.obfuscated ? (i: number) => nameKeyByte(ctx.id, i) : undefined);

const READ: Record<FieldKind, (r: ByteReader, key: string, ctx: Context) => unknown> = {
  u8: (r, key) => r.u8(key),
  u16: (r, key) => r.u16(key),
  i16: (r, key) => r.i16(key),
  u32: (r, key) => r.u32(key),
  i32: (r, key) => r.i32(key),
  str: (r, key) => r.str(key),
  name: (r, key, ctx) => r.str(key, nameMask(ctx)),
  hits: (r, key) => r.u8(key) / 6,
  bytes80: (r, key) => r.bytesCopy(80, key),
  bytes9: (r, key) => r.bytesCopy(9, key),
  recipe: (r, key) => [r.u16(`${key}[0]`), r.u16(`${key}[1]`)],
};

const WRITE: Record<FieldKind, (w: ByteWriter, value: unknown, key: string, ctx: Context) => void> = {
  u8: (w, value, key) => w.u8(value as number, key),
  u16: (w, value, key) => w.u16(value as number, key),
  i16: (w, value, key) => w.i16(value as number, key),
  u32: (w, value, key) => w.u32(value as number, key),
  i32: (w, value, key) => w.i32(value as number, key),
  str: (w, value, key) => w.str(value as string, key),
  name: (w, value, key, ctx) => w.str(value as string, key, nameMask(ctx)),
  hits: (w, value, key) => {
    // Rounding undoes the float error of the /6 in decoding; anything further off is not storable.
    const stored = Math.round((value as number) * 6);
    if (!(Math.abs(stored - (value as number) * 6) < 1e-6)) throw new Error(`${w.label}: ${key} must be n/6`);
    w.u8(stored, `${key} x 6`);
  },
  bytes80: (w, value, key) => w.bytes(value as Uint8Array, 80, key),
  bytes9: (w, value, key) => w.bytes(value as Uint8Array, 9, key),
  recipe: (w, value, key) => {
    if (!Array.isArray(value) || value.length !== 2) throw new Error(`${w.label}: ${key} must be [u16, u16]`);
    w.u16(value[0], `${key}[0]`);
    w.u16(value[1], `${key}[1]`);
  },
};

/** Parses an items.dat file; throws a precise Error on an unknown version, truncation or trailing bytes. */
export function decodeItemsDat(bytes: Uint8Array): ItemsDat {
  const r = new ByteReader(bytes, 'items.dat');
  const version = r.u16('version');
  checkVersion(version);
  const count = r.i32('item count');
  const min = minItemSize(version);
  if (count < 0 || count * min > r.remaining) {
    throw new Error(`items.dat: item count ${count} does not fit in the ${r.remaining} bytes that follow`);
  }
  const ctx: Context = { id: 0, obfuscated: version >= NAME_OBFUSCATION_SINCE };
  const items: Item[] = [];
  for (let index = 0; index < count; index++) {
    r.label = `items.dat v${version} item #${index}`;
    const item: Record<string, unknown> = {};
    for (const [key, kind, since] of ITEM_FIELDS) {
      item[key] = since && version < since ? defaultFieldValue(kind) : READ[kind](r, key, ctx);
      if (key === 'id') ctx.id = item.id as number;
    }
    items.push(item as unknown as Item);
  }
  if (r.remaining > 0) {
    throw new Error(`items.dat v${version}: ${r.remaining} unexpected bytes after the last item at offset ${r.offset}`);
  }
  return { version, items };
}

/** Serializes items.dat for `version`; fields newer than the version are left out. */
export function encodeItemsDat(dat: ItemsDat): Uint8Array {
  checkVersion(dat.version);
  const w = new ByteWriter('items.dat');
  w.u16(dat.version, 'version');
  w.i32(dat.items.length, 'item count');
  const ctx: Context = { id: 0, obfuscated: dat.version >= NAME_OBFUSCATION_SINCE };
  dat.items.forEach((item, index) => {
    w.label = `items.dat v${dat.version} item #${index}`;
    ctx.id = item.id;
    const fields = item as unknown as Record<string, unknown>;
    for (const [key, kind, since] of ITEM_FIELDS) {
      if (!since || dat.version >= since) WRITE[kind](w, fields[key], key, ctx);
    }
  });
  return w.finish();
}
