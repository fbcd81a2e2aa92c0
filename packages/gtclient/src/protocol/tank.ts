// The 56-byte tank header (game message type 4) and its extended data, per docs/game-protocol.md.

export const TANK_HEADER_SIZE = 56;
export const STATE_FLAG_EXTENDED = 8;

export const TankType = {
  state: 0,
  callFunction: 1,
  tileChangeRequest: 3,
  sendMapData: 4,
  tileUpdate: 5,
  /** Tile damage: sent to the world on every punch hit (value 6, punchX/Y). */
  tileApplyDamage: 8,
  inventory: 9,
  itemDatabase: 16,
  disconnect: 26,
} as const;

export interface Tank {
  type: number;
  objType: number;
  jump: number;
  punchRange: number;
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
  extended: Buffer;
}

/** A tank with every field zero but `type` (and netId -1, "nobody in particular"). */
export function blankTank(type: number): Tank {
  return {
    type,
    objType: 0,
    jump: 0,
    punchRange: 0,
    netId: -1,
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
    extended: Buffer.alloc(0),
  };
}

/** Encodes a full game message: u32 type 4, the header, then the extended data (flag 8 set when present). */
export function encodeTank(t: Tank): Buffer {
  const out = Buffer.alloc(4 + TANK_HEADER_SIZE + t.extended.length);
  out.writeUInt32LE(4, 0);
  const h = 4;
  out.writeUInt8(t.type & 0xff, h);
  out.writeUInt8(t.objType & 0xff, h + 1);
  out.writeUInt8(t.jump & 0xff, h + 2);
  out.writeUInt8(t.punchRange & 0xff, h + 3);
  out.writeInt32LE(t.netId | 0, h + 4);
  out.writeInt32LE(t.targetNetId | 0, h + 8);
  const flags = t.extended.length > 0 ? t.stateFlags | STATE_FLAG_EXTENDED : t.stateFlags;
  out.writeUInt32LE(flags >>> 0, h + 12);
  out.writeFloatLE(t.delay, h + 16);
  out.writeInt32LE(t.value | 0, h + 20);
  out.writeFloatLE(t.x, h + 24);
  out.writeFloatLE(t.y, h + 28);
  out.writeFloatLE(t.xSpeed, h + 32);
  out.writeFloatLE(t.ySpeed, h + 36);
  out.writeFloatLE(t.rotation, h + 40);
  out.writeInt32LE(t.punchX | 0, h + 44);
  out.writeInt32LE(t.punchY | 0, h + 48);
  out.writeUInt32LE(t.extended.length, h + 52);
  t.extended.copy(out, h + TANK_HEADER_SIZE);
  return out;
}

/** Decodes a type 4 payload (the u32 type included); null when truncated or extendedLength runs past the end. */
export function decodeTank(payload: Buffer): Tank | null {
  if (payload.length < 4 + TANK_HEADER_SIZE || payload.readUInt32LE(0) !== 4) return null;
  const h = 4;
  const extendedLength = payload.readUInt32LE(h + 52);
  if (extendedLength > payload.length - h - TANK_HEADER_SIZE) return null;
  return {
    type: payload.readUInt8(h),
    objType: payload.readUInt8(h + 1),
    jump: payload.readUInt8(h + 2),
    punchRange: payload.readUInt8(h + 3),
    netId: payload.readInt32LE(h + 4),
    targetNetId: payload.readInt32LE(h + 8),
    stateFlags: payload.readUInt32LE(h + 12),
    delay: payload.readFloatLE(h + 16),
    value: payload.readInt32LE(h + 20),
    x: payload.readFloatLE(h + 24),
    y: payload.readFloatLE(h + 28),
    xSpeed: payload.readFloatLE(h + 32),
    ySpeed: payload.readFloatLE(h + 36),
    rotation: payload.readFloatLE(h + 40),
    punchX: payload.readInt32LE(h + 44),
    punchY: payload.readInt32LE(h + 48),
    extended: Buffer.from(payload.subarray(h + TANK_HEADER_SIZE, h + TANK_HEADER_SIZE + extendedLength)),
  };
}
