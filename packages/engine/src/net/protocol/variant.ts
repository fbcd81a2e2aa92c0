import { TANK } from './message-types.ts';
import { encodeTank, tankHeader } from './tank.ts';

/** One argument of a variant list, tagged with its wire type. */
export type VariantArg =
  | { type: 'float'; value: number }
  | { type: 'string'; value: string }
  | { type: 'vec2'; value: [number, number] }
  | { type: 'vec3'; value: [number, number, number] }
  | { type: 'u32'; value: number }
  | { type: 'i32'; value: number };

const CODE = { float: 1, string: 2, vec2: 3, vec3: 4, u32: 5, i32: 9 } as const;

/** Shorthands: a JS string is a string argument, a JS number an i32. */
export type VariantInput = VariantArg | string | number;

const normalise = (a: VariantInput): VariantArg =>
  typeof a === 'string' ? { type: 'string', value: a } : typeof a === 'number' ? { type: 'i32', value: a } : a;

/** `u8 count`, then per argument `u8 index; u8 type; value` (docs/game-protocol.md, "Variant list"). */
export function encodeVariantList(args: readonly VariantInput[]): Buffer {
  const parts: Buffer[] = [Buffer.from([args.length])];
  args.forEach((input, index) => {
    const a = normalise(input);
    const head = Buffer.from([index, CODE[a.type]]);
    let body: Buffer;
    switch (a.type) {
      case 'float':
        body = Buffer.alloc(4);
        body.writeFloatLE(a.value);
        break;
      case 'string': {
        const text = Buffer.from(a.value, 'utf8');
        body = Buffer.alloc(4 + text.length);
        body.writeUInt32LE(text.length);
        text.copy(body, 4);
        break;
      }
      case 'vec2':
      case 'vec3':
        body = Buffer.alloc(4 * a.value.length);
        a.value.forEach((n, i) => {
          body.writeFloatLE(n, i * 4);
        });
        break;
      case 'u32':
        body = Buffer.alloc(4);
        body.writeUInt32LE(a.value >>> 0);
        break;
      case 'i32':
        body = Buffer.alloc(4);
        body.writeInt32LE(a.value | 0);
        break;
    }
    parts.push(head, body);
  });
  return Buffer.concat(parts);
}

/** Reads a variant list; undefined when it is truncated, has an unknown type, or bytes are left over. */
export function decodeVariantList(bytes: Uint8Array): VariantArg[] | undefined {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length < 1) return undefined;
  const count = b[0] as number;
  const out: VariantArg[] = [];
  let at = 1;
  const need = (n: number) => at + n <= b.length;
  for (let i = 0; i < count; i++) {
    if (!need(2)) return undefined;
    const type = b[at + 1];
    at += 2;
    if (type === CODE.string) {
      if (!need(4)) return undefined;
      const length = b.readUInt32LE(at);
      at += 4;
      if (!need(length)) return undefined;
      out.push({ type: 'string', value: b.toString('utf8', at, at + length) });
      at += length;
      continue;
    }
    const size = type === CODE.vec2 ? 8 : type === CODE.vec3 ? 12 : 4;
    if (!need(size)) return undefined;
    if (type === CODE.float) out.push({ type: 'float', value: b.readFloatLE(at) });
    else if (type === CODE.vec2) out.push({ type: 'vec2', value: [b.readFloatLE(at), b.readFloatLE(at + 4)] });
    else if (type === CODE.vec3)
      out.push({ type: 'vec3', value: [b.readFloatLE(at), b.readFloatLE(at + 4), b.readFloatLE(at + 8)] });
    else if (type === CODE.u32) out.push({ type: 'u32', value: b.readUInt32LE(at) });
    else if (type === CODE.i32) out.push({ type: 'i32', value: b.readInt32LE(at) });
    else return undefined;
    at += size;
  }
  return at === b.length ? out : undefined;
}

/** A call-function tank message (type 1): `name(args...)`, netId -1 unless it is about a player. */
export function encodeCall(name: string, args: readonly VariantInput[] = [], netId = -1, delay = 0): Buffer {
  // The client waits `delay` ms before running the call: the i32 value field, not the f32 at offset 16.
  return encodeTank(
    tankHeader({ tankType: TANK.callFunction, netId, value: delay }),
    encodeVariantList([name, ...args]),
  );
}
