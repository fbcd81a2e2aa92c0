// What the reference walk (bench/reference-walk.ts) records of each message a server sends, field by field: header
// fields, call arguments with their wire types, and for world data a tolerant reading (it never refuses a layout: it
// reports what it found, leftovers included). The decoding is gtclient's; only the tolerance is added here.

import { inflateSync } from 'node:zlib';
import {
  decodeTank,
  decodeTypedVariants,
  ITEMS_WITH_EXTRA,
  protonHash,
  readTileExtra,
  type Tank,
  TankType,
  TileFlag,
  type Variant,
  type VariantValue,
} from '@canopy/gtclient';

/** One call argument as sent: its wire type and value. */
interface Arg {
  type: Variant['type'];
  value: VariantValue;
}

/** Every field of the 56-byte tank header, as decodeTank names them, whatever its extended-length field says. */
export type TankFields = Omit<Tank, 'extended'> & {
  /** The header's extended-length field. */
  extLen: number;
  /** Bytes after the 60-byte message header (what actually came). */
  after: number;
};

interface WorldSummary {
  version: number;
  flags: number;
  name: string;
  width: number;
  height: number;
  tileCountU32: number;
  gapAfterCount: string;
  tileFlags: Record<string, number>;
  parentsNonZero: number;
  layers: Record<string, number>;
  extras: { x: number; y: number; fg: number; flags: number; hex: string }[];
  door: { x: number; y: number } | null;
  gapAfterTiles: string;
  droppedCount: number;
  lastDroppedUid: number;
  weather: string;
  leftover: number;
  leftoverNonZero: number;
  error?: string;
}

/** One received message as recorded. */
export interface Received {
  /** A: the walker; B: the observer. */
  who?: string;
  step: string;
  ms: number;
  channel: number;
  bytes: number;
  msgType: number;
  kind: 'hello' | 'text' | 'tank' | 'call' | 'other';
  /** The raw bytes after the u32 message type of hello/text messages (hex), and the text itself. */
  text?: string;
  textEndsWithNul?: boolean;
  tank?: TankFields;
  /** The arguments in wire order with their wire types (uint 5 vs int 9 matters when comparing). */
  call?: { name: string; args: Arg[] };
  world?: WorldSummary;
  /** Tanks that are neither calls nor world data: everything after the header, hex (capped). */
  extHex?: string;
  items?: { zlib: boolean; size: number; hash: number };
}

/** A whole walk: the steps taken, everything received, the ENet statistics and notes. */
export interface Walk {
  target: string;
  startedAt: string;
  steps: { name: string; sent: string }[];
  received: Received[];
  enet: Record<string, number>[];
  notes: string[];
}

/** The u32 message type and the tank header. */
const MESSAGE_HEADER_SIZE = 60;
const MAIN_DOOR = 6;

/** decodeTank on the header alone: servers write lengths past the end, or 0 and padding (Gurotopia). */
function tankFields(p: Buffer): TankFields {
  const header = Buffer.from(p.subarray(0, MESSAGE_HEADER_SIZE));
  const extLen = header.readUInt32LE(MESSAGE_HEADER_SIZE - 4);
  header.writeUInt32LE(0, MESSAGE_HEADER_SIZE - 4);
  // Never null: describe checked the message type and that the header is whole.
  const { extended: _, ...fields } = decodeTank(header) as Tank;
  return { ...fields, extLen, after: p.length - MESSAGE_HEADER_SIZE };
}

/** A call's name and its arguments as sent; null when the variant list does not decode or has no name. */
function readCall(b: Buffer): { name: string; args: Arg[] } | null {
  const [first, ...rest] = decodeTypedVariants(b) ?? [];
  if (first?.type !== 'string') return null;
  return { name: first.value, args: rest.map(({ type, value }) => ({ type, value })) };
}

const hex = (b: Buffer, cap = 96) =>
  b.subarray(0, cap).toString('hex') + (b.length > cap ? `…(+${b.length - cap})` : '');

/**
 * Reads world data (all bytes after the 60-byte header, whatever the length field says) without refusing
 * anything: the lock extra may be cut short by a server, so a tile whose extra does not read ends the reading.
 */
function readWorld(d: Buffer): WorldSummary {
  const s: WorldSummary = {
    version: 0,
    flags: 0,
    name: '',
    width: 0,
    height: 0,
    tileCountU32: 0,
    gapAfterCount: '',
    tileFlags: {},
    parentsNonZero: 0,
    layers: {},
    extras: [],
    door: null,
    gapAfterTiles: '',
    droppedCount: 0,
    lastDroppedUid: 0,
    weather: '',
    leftover: 0,
    leftoverNonZero: 0,
  };
  try {
    s.version = d.readUInt16LE(0);
    s.flags = d.readUInt32LE(2);
    const n = d.readUInt16LE(6);
    s.name = d.toString('latin1', 8, 8 + n);
    let p = 8 + n;
    s.width = d.readUInt32LE(p);
    s.height = d.readUInt32LE(p + 4);
    s.tileCountU32 = d.readUInt32LE(p + 8);
    s.gapAfterCount = d.subarray(p + 12, p + 17).toString('hex');
    p += 17;
    const count = s.width * s.height;
    for (let i = 0; i < count; i++) {
      const fg = d.readUInt16LE(p);
      const bg = d.readUInt16LE(p + 2);
      const parent = d.readUInt16LE(p + 4);
      const flags = d.readUInt16LE(p + 6);
      p += 8;
      if (parent) s.parentsNonZero++;
      const fk = `0x${flags.toString(16).padStart(4, '0')}`;
      s.tileFlags[fk] = (s.tileFlags[fk] ?? 0) + 1;
      const lk = `${fg}/${bg}`;
      s.layers[lk] = (s.layers[lk] ?? 0) + 1;
      const x = i % s.width;
      const y = Math.floor(i / s.width);
      if (flags & TileFlag.locked) p += 2;
      if (flags & TileFlag.extraData || ITEMS_WITH_EXTRA.has(fg)) {
        const { end } = readTileExtra(d, p, i, fg, s.version);
        s.extras.push({ x, y, fg, flags, hex: d.subarray(p, end).toString('hex') });
        p = end;
      }
      if (fg === MAIN_DOOR && !s.door) s.door = { x, y };
    }
    s.gapAfterTiles = d.subarray(p, p + 12).toString('hex');
    p += 12;
    s.droppedCount = d.readUInt32LE(p);
    s.lastDroppedUid = d.readUInt32LE(p + 4);
    p += 8;
    // Objects are 16 bytes; a server may write a count it does not follow, so at most what is left is read.
    p += 16 * Math.min(s.droppedCount, Math.floor((d.length - p) / 16));
    s.weather = d.subarray(p, p + 12).toString('hex');
    p += 12;
    s.leftover = Math.max(0, d.length - p);
    s.leftoverNonZero = s.leftover ? d.subarray(p).filter((b) => b !== 0).length : 0;
  } catch (error) {
    s.error = (error as Error).message;
  }
  return s;
}

/** Records one received message, as field by field as its kind allows. */
export function describe(p: Buffer, step: string, ms: number, channel: number): Received {
  const msgType = p.length >= 4 ? p.readUInt32LE(0) : -1;
  const r: Received = { step, ms, channel, bytes: p.length, msgType, kind: 'other' };
  if (msgType === 1) {
    r.kind = 'hello';
    r.text = p.subarray(4).toString('hex');
  } else if (msgType === 2 || msgType === 3) {
    r.kind = 'text';
    const body = p.subarray(4);
    r.textEndsWithNul = body[body.length - 1] === 0;
    r.text = body.toString('utf8').replace(/\0+$/, '');
  } else if (msgType === 4 && p.length >= MESSAGE_HEADER_SIZE) {
    r.kind = 'tank';
    const t = tankFields(p);
    r.tank = t;
    const rest = p.subarray(MESSAGE_HEADER_SIZE);
    if (t.type === TankType.callFunction) {
      const call = readCall(rest);
      if (call) {
        r.kind = 'call';
        r.call = call;
      } else r.extHex = hex(rest);
    } else if (t.type === TankType.sendMapData) {
      r.world = readWorld(rest);
    } else if (t.type === TankType.itemDatabase) {
      let items = rest;
      let zlib = false;
      try {
        items = inflateSync(rest);
        zlib = true;
      } catch {}
      r.items = { zlib, size: items.length, hash: protonHash(items) };
    } else r.extHex = hex(rest);
  }
  return r;
}

/** One line per message, for the transcript and the comparison. */
export function signature(r: Received): string {
  if (r.kind === 'hello') return `hello ${r.bytes}B`;
  if (r.kind === 'text') return `text t${r.msgType} ${JSON.stringify(r.text)}${r.textEndsWithNul ? ' +NUL' : ''}`;
  const t = r.tank;
  if (!t) return `other t${r.msgType} ${r.bytes}B`;
  const head = `ch${r.channel} net=${t.netId} val=${t.value} fl=0x${t.stateFlags.toString(16)} ext=${t.extLen}/${t.after}`;
  if (r.call) {
    const args = r.call.args.map((a) => {
      const v =
        typeof a.value === 'string'
          ? JSON.stringify(a.value.length > 60 ? `${a.value.slice(0, 60)}…` : a.value)
          : JSON.stringify(a.value);
      return `${a.type}:${v}`;
    });
    return `call ${r.call.name}(${args.join(', ')}) ${head}`;
  }
  // The labels predate gtclient's names: b1 objType, b2 jump, b3 punchRange, tgt targetNetId, f16 delay, sx/sy
  // speeds, f40 rotation; kept so that transcripts stay comparable.
  const more =
    `b1=${t.objType} b2=${t.jump} b3=${t.punchRange} tgt=${t.targetNetId} f16=${t.delay} x=${t.x} y=${t.y} ` +
    `sx=${t.xSpeed} sy=${t.ySpeed} f40=${t.rotation} px=${t.punchX} py=${t.punchY}`;
  if (r.world) return `tank4 world ${head} ${JSON.stringify(r.world)}`;
  if (r.items) return `tank16 items ${head} ${JSON.stringify(r.items)}`;
  return `tank${t.type} ${head} ${more}${r.extHex ? ` extra=${r.extHex}` : ''}`;
}
