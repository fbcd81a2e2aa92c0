import { MESSAGE } from './message-types.ts';

/** Size of the tank header after the message type. */
export const TANK_HEADER_SIZE = 56;
/** stateFlags bit: the packet carries extended data. */
export const HAS_EXTENDED = 8;

/** The 56-byte tank header (docs/game-protocol.md). */
export interface TankHeader {
  tankType: number;
  objType: number;
  jumpCount: number;
  animationType: number;
  netId: number;
  targetNetId: number;
  stateFlags: number;
  delay: number;
  value: number;
  x: number;
  y: number;
  xSpeed: number;
  ySpeed: number;
  rotation: number;
  punchX: number;
  punchY: number;
}

/** A header with every field zero except those given. */
export function tankHeader(fields: Partial<TankHeader>): TankHeader {
  return {
    tankType: 0,
    objType: 0,
    jumpCount: 0,
    animationType: 0,
    netId: 0,
    targetNetId: 0,
    stateFlags: 0,
    delay: 0,
    value: 0,
    x: 0,
    y: 0,
    xSpeed: 0,
    ySpeed: 0,
    rotation: 0,
    punchX: 0,
    punchY: 0,
    ...fields,
  };
}

/** A whole tank message: `u32 4`, the header, then `extended` (its length written in the header). */
export function encodeTank(h: TankHeader, extended?: Uint8Array): Buffer {
  const ext = extended ?? new Uint8Array(0);
  const out = Buffer.alloc(4 + TANK_HEADER_SIZE + ext.length);
  out.writeUInt32LE(MESSAGE.tank, 0);
  const b = 4;
  out.writeUInt8(h.tankType & 0xff, b);
  out.writeUInt8(h.objType & 0xff, b + 1);
  out.writeUInt8(h.jumpCount & 0xff, b + 2);
  out.writeUInt8(h.animationType & 0xff, b + 3);
  out.writeInt32LE(h.netId | 0, b + 4);
  out.writeInt32LE(h.targetNetId | 0, b + 8);
  out.writeUInt32LE((ext.length ? h.stateFlags | HAS_EXTENDED : h.stateFlags) >>> 0, b + 12);
  out.writeFloatLE(h.delay, b + 16);
  out.writeInt32LE(h.value | 0, b + 20);
  out.writeFloatLE(h.x, b + 24);
  out.writeFloatLE(h.y, b + 28);
  out.writeFloatLE(h.xSpeed, b + 32);
  out.writeFloatLE(h.ySpeed, b + 36);
  out.writeFloatLE(h.rotation, b + 40);
  out.writeInt32LE(h.punchX | 0, b + 44);
  out.writeInt32LE(h.punchY | 0, b + 48);
  out.writeUInt32LE(ext.length, b + 52);
  out.set(ext, b + TANK_HEADER_SIZE);
  return out;
}

/**
 * Reads a tank body (the bytes after the message type). Undefined when shorter than the header, when
 * extendedLength runs past the end, or when a float is not finite (a client never sends NaN positions).
 */
export function decodeTank(body: Uint8Array): { header: TankHeader; extended: Uint8Array } | undefined {
  if (body.length < TANK_HEADER_SIZE) return undefined;
  const v = new DataView(body.buffer, body.byteOffset, body.byteLength);
  const extendedLength = v.getUint32(52, true);
  if (extendedLength > body.length - TANK_HEADER_SIZE) return undefined;
  const header: TankHeader = {
    tankType: v.getUint8(0),
    objType: v.getUint8(1),
    jumpCount: v.getUint8(2),
    animationType: v.getUint8(3),
    netId: v.getInt32(4, true),
    targetNetId: v.getInt32(8, true),
    stateFlags: v.getUint32(12, true),
    delay: v.getFloat32(16, true),
    value: v.getInt32(20, true),
    x: v.getFloat32(24, true),
    y: v.getFloat32(28, true),
    xSpeed: v.getFloat32(32, true),
    ySpeed: v.getFloat32(36, true),
    rotation: v.getFloat32(40, true),
    punchX: v.getInt32(44, true),
    punchY: v.getInt32(48, true),
  };
  for (const f of [header.delay, header.x, header.y, header.xSpeed, header.ySpeed, header.rotation])
    if (!Number.isFinite(f)) return undefined;
  return {
    header,
    extended: body.subarray(TANK_HEADER_SIZE, TANK_HEADER_SIZE + extendedLength),
  };
}
