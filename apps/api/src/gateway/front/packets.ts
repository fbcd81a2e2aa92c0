/**
 * The few game messages the ENet front reads and writes, from the byte layouts of docs/game-protocol.md
 * (our own code: growtopia.js's packet classes are not used). All integers little-endian.
 */

export const MESSAGE_HELLO = 1;
export const MESSAGE_TEXT = 2;
export const MESSAGE_GAME = 3;
export const MESSAGE_TANK = 4;
const TANK_CALL_FUNCTION = 1;
const TANK_HEADER_BYTES = 56;
const FLAG_EXTENDED = 8;
const VARIANT_STRING = 2;
const VARIANT_I32 = 9;

/** The server's hello: type 1 and four zero bytes. */
export function helloPacket(): Buffer {
  const out = Buffer.alloc(8);
  out.writeUInt32LE(MESSAGE_HELLO, 0);
  return out;
}

/**
 * A game message (type 3) of `key|value` lines, NUL-terminated: how the game's own log line (`action|log`) and
 * `action|logon_fail` (which makes the client give up the login) arrive.
 */
export function gameTextPacket(lines: readonly string[]): Buffer {
  const text = Buffer.from(lines.join('\n'), 'utf8');
  const out = Buffer.alloc(4 + text.length + 1);
  out.writeUInt32LE(MESSAGE_GAME, 0);
  text.copy(out, 4);
  return out;
}

/** One argument of a call: an i32 or a string (the only types the front sends). */
export type CallArg = { i32: number } | string;

/** A "call function" tank (type 1) with netId -1, delay 0 and the variant list as its extended data. */
export function callPacket(name: string, ...args: CallArg[]): Buffer {
  const parts: Buffer[] = [Buffer.from([1 + args.length])];
  const stringArg = (index: number, value: string) => {
    const bytes = Buffer.from(value, 'utf8');
    const head = Buffer.alloc(6);
    head.writeUInt8(index, 0);
    head.writeUInt8(VARIANT_STRING, 1);
    head.writeUInt32LE(bytes.length, 2);
    parts.push(head, bytes);
  };
  stringArg(0, name);
  for (const [i, arg] of args.entries()) {
    if (typeof arg === 'string') {
      stringArg(i + 1, arg);
      continue;
    }
    const cell = Buffer.alloc(6);
    cell.writeUInt8(i + 1, 0);
    cell.writeUInt8(VARIANT_I32, 1);
    cell.writeInt32LE(arg.i32, 2);
    parts.push(cell);
  }
  const extended = Buffer.concat(parts);
  const out = Buffer.alloc(4 + TANK_HEADER_BYTES + extended.length);
  out.writeUInt32LE(MESSAGE_TANK, 0);
  out.writeUInt8(TANK_CALL_FUNCTION, 4);
  out.writeInt32LE(-1, 4 + 4);
  out.writeUInt32LE(FLAG_EXTENDED, 4 + 12);
  out.writeUInt32LE(extended.length, 4 + 52);
  extended.copy(out, 4 + TANK_HEADER_BYTES);
  return out;
}

/**
 * The key|value pairs of a text (2) or game message (3), or undefined for anything else. The text ends at the
 * first NUL (or the packet's end); each line splits at its first `|`; the first value of a key wins.
 */
export function readTextPacket(data: Buffer): Map<string, string> | undefined {
  if (data.length < 4) return undefined;
  const type = data.readUInt32LE(0);
  if (type !== MESSAGE_TEXT && type !== MESSAGE_GAME) return undefined;
  const nul = data.indexOf(0, 4);
  const text = data.toString('utf8', 4, nul < 0 ? data.length : nul);
  const fields = new Map<string, string>();
  for (const line of text.split('\n')) {
    const bar = line.indexOf('|');
    if (bar < 0) continue;
    const key = line.slice(0, bar);
    if (!fields.has(key)) fields.set(key, line.slice(bar + 1).replace(/\r$/, ''));
  }
  return fields;
}
