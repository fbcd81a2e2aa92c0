import { MESSAGE } from './message-types.ts';

/** Most lines a text message may hold; the rest are ignored. */
const MAX_LINES = 64;
/** Longest key or value kept; longer ones are cut. */
export const MAX_FIELD_LENGTH = 512;

/** The `key|value` fields of a text or game message, keys as sent (last one wins). */
export type TextFields = Map<string, string>;

/**
 * Reads the body of a text (2) or game message (3): up to the first NUL, `\n`-separated lines, each split at
 * its first `|`. A line without `|` is a key with an empty value. Never throws.
 */
export function decodeTextBody(body: Uint8Array): TextFields {
  const end = body.indexOf(0);
  const text = Buffer.from(body.buffer, body.byteOffset, end === -1 ? body.length : end).toString('utf8');
  const fields: TextFields = new Map();
  let lines = 0;
  for (const line of text.split('\n')) {
    if (++lines > MAX_LINES) break;
    if (!line) continue;
    const bar = line.indexOf('|');
    const key = (bar === -1 ? line : line.slice(0, bar)).slice(0, MAX_FIELD_LENGTH);
    const value = bar === -1 ? '' : line.slice(bar + 1, bar + 1 + MAX_FIELD_LENGTH).replace(/\r$/, '');
    fields.set(key, value);
  }
  return fields;
}

/** A text (2) or game message (3): `u32 type`, the lines joined by `\n`, one NUL. */
export function encodeText(type: typeof MESSAGE.text | typeof MESSAGE.game, lines: readonly string[]): Buffer {
  const text = Buffer.from(lines.join('\n'), 'utf8');
  const out = Buffer.alloc(4 + text.length + 1);
  out.writeUInt32LE(type, 0);
  text.copy(out, 4);
  return out;
}

/** The hello the engine sends a peer on connect: type 1 and four zero bytes. */
export function encodeHello(): Buffer {
  const out = Buffer.alloc(8);
  out.writeUInt32LE(MESSAGE.hello, 0);
  return out;
}
