// The game messages inside ENet packets: u32 LE type, then a text body (types 2 and 3) or a tank packet (type 4).

export const MessageType = { hello: 1, text: 2, game: 3, tank: 4 } as const;

/** Encodes `key|value` lines as a text (2) or game (3) message, NUL-terminated. */
export function encodeText(type: 2 | 3, lines: readonly (readonly [string, string | number])[] | string): Buffer {
  const body = typeof lines === 'string' ? lines : lines.map(([k, v]) => `${k}|${v}`).join('\n');
  const out = Buffer.alloc(4 + Buffer.byteLength(body) + 1);
  out.writeUInt32LE(type, 0);
  out.write(body, 4, 'utf8');
  return out;
}

/** The text of a type 2/3 body: up to the first NUL or the end. */
export function textBody(payload: Buffer): string {
  const body = payload.subarray(4);
  const nul = body.indexOf(0);
  return body.subarray(0, nul < 0 ? body.length : nul).toString('utf8');
}

/** Splits text into its `key|value` lines (a value may itself hold `|`). */
export function parseText(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const bar = line.indexOf('|');
    if (bar < 0) out.set(line, '');
    else out.set(line.slice(0, bar), line.slice(bar + 1));
  }
  return out;
}

/** The message type of a received payload, or null when it is too short to hold one. */
export function messageType(payload: Buffer): number | null {
  return payload.length >= 4 ? payload.readUInt32LE(0) : null;
}
