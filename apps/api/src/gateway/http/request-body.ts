import type { IncomingMessage } from 'node:http';
import type { GatewayRequest } from './messages.ts';

/** A request the gateway refuses: status and a short plain text. */
export class HttpRefusal extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/** Reads a body of at most `limit` bytes; a larger declared or sent body is a 413 before it is all read. */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (!Number.isFinite(declared) || declared > limit) throw new HttpRefusal(413, 'Request body too large.');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new HttpRefusal(413, 'Request body too large.');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** The body the TLS thread read for a request (empty when none was sent); one past its route's limit is a 413. */
export function bodyOf(request: GatewayRequest): Buffer {
  if (request.bodyTooLarge) throw new HttpRefusal(413, 'Request body too large.');
  const body = request.body;
  return body ? Buffer.from(body.buffer, body.byteOffset, body.byteLength) : Buffer.alloc(0);
}

/**
 * The fields of a form-encoded or JSON body (by its content type) as strings and booleans (other JSON values are
 * dropped, so a field never arrives as an object). A body that does not parse is a 400.
 */
export function parseFields(contentType: string, body: Buffer): Record<string, string | boolean> {
  const type = contentType.toLowerCase();
  const text = body.toString('utf8');
  const fields: Record<string, string | boolean> = Object.create(null);
  if (type.startsWith('application/json')) {
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      throw new HttpRefusal(400, 'Request body is not valid JSON.');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new HttpRefusal(400, 'Request body must be a JSON object.');
    for (const [key, value] of Object.entries(parsed))
      if (typeof value === 'string' || typeof value === 'boolean') fields[key] = value;
    return fields;
  }
  // The game client and HTML forms send application/x-www-form-urlencoded (some clients name no type).
  if (type && !type.startsWith('application/x-www-form-urlencoded') && !type.startsWith('text/plain'))
    throw new HttpRefusal(415, 'Unsupported content type.');
  for (const [key, value] of new URLSearchParams(text)) fields[key] = value;
  return fields;
}
