// Variant lists (the extended data of a tank type 1 "call function"): u8 count, then per argument
// u8 index, u8 type, value. Argument 0 is the function's name.

export type Variant =
  | { type: 'float'; value: number }
  | { type: 'string'; value: string }
  | { type: 'vec2'; value: [number, number] }
  | { type: 'vec3'; value: [number, number, number] }
  | { type: 'uint'; value: number }
  | { type: 'int'; value: number };

const TYPE_CODES = { float: 1, string: 2, vec2: 3, vec3: 4, uint: 5, int: 9 } as const;

/** Plain JS view of an argument: numbers, strings, or number tuples. */
export type VariantValue = number | string | number[];

/** One decoded argument: its index (0 is the function's name), wire type and value. */
export type IndexedVariant = Variant & { index: number };

/** Decodes a variant list in wire order, keeping each argument's type; null when truncated or holding an unknown type. */
export function decodeTypedVariants(data: Buffer): IndexedVariant[] | null {
  if (data.length < 1) return null;
  const count = data.readUInt8(0);
  const out: IndexedVariant[] = [];
  let p = 1;
  for (let i = 0; i < count; i++) {
    if (data.length - p < 2) return null;
    const index = data.readUInt8(p);
    const type = data.readUInt8(p + 1);
    p += 2;
    const need = type === 1 || type === 5 || type === 9 ? 4 : type === 3 ? 8 : type === 4 ? 12 : type === 2 ? 4 : -1;
    if (need < 0 || data.length - p < need) return null;
    switch (type) {
      case 1:
        out.push({ index, type: 'float', value: data.readFloatLE(p) });
        p += 4;
        break;
      case 2: {
        const length = data.readUInt32LE(p);
        p += 4;
        if (data.length - p < length) return null;
        out.push({ index, type: 'string', value: data.toString('utf8', p, p + length) });
        p += length;
        break;
      }
      case 3:
        out.push({ index, type: 'vec2', value: [data.readFloatLE(p), data.readFloatLE(p + 4)] });
        p += 8;
        break;
      case 4:
        out.push({
          index,
          type: 'vec3',
          value: [data.readFloatLE(p), data.readFloatLE(p + 4), data.readFloatLE(p + 8)],
        });
        p += 12;
        break;
      case 5:
        out.push({ index, type: 'uint', value: data.readUInt32LE(p) });
        p += 4;
        break;
      default:
        out.push({ index, type: 'int', value: data.readInt32LE(p) });
        p += 4;
        break;
    }
  }
  return out;
}

/** Decodes a variant list into plain values, each at its index; null when truncated or holding an unknown type. */
export function decodeVariants(data: Buffer): VariantValue[] | null {
  const typed = decodeTypedVariants(data);
  if (!typed) return null;
  const out: VariantValue[] = [];
  for (const v of typed) out[v.index] = v.value;
  return out;
}

/** Encodes a variant list; the index of each argument is its position. */
export function encodeVariants(args: readonly Variant[]): Buffer {
  const parts: Buffer[] = [Buffer.from([args.length])];
  args.forEach((a, index) => {
    const head = Buffer.from([index, TYPE_CODES[a.type]]);
    let body: Buffer;
    switch (a.type) {
      case 'float':
        body = Buffer.alloc(4);
        body.writeFloatLE(a.value);
        break;
      case 'string': {
        const s = Buffer.from(a.value, 'utf8');
        body = Buffer.alloc(4 + s.length);
        body.writeUInt32LE(s.length);
        s.copy(body, 4);
        break;
      }
      case 'vec2':
      case 'vec3':
        body = Buffer.alloc(4 * a.value.length);
        a.value.forEach((v, i) => {
          body.writeFloatLE(v, i * 4);
        });
        break;
      case 'uint':
        body = Buffer.alloc(4);
        body.writeUInt32LE(a.value >>> 0);
        break;
      case 'int':
        body = Buffer.alloc(4);
        body.writeInt32LE(a.value | 0);
        break;
    }
    parts.push(head, body);
  });
  return Buffer.concat(parts);
}
