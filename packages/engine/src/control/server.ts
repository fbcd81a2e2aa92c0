import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { EngineContext } from '../context.ts';
import { DISK_FULL_MESSAGE, EngineError, isDiskFull } from '../errors.ts';
import { errorMessage, type Logger } from '../log.ts';

// node:http through require, not import: an ES import of it builds a namespace of all its exports, and
// reading its lazy WebSocket export loads undici (about 2 MB of heap, 14 MB RSS for every engine).
const { createServer } = createRequire(import.meta.url)('node:http') as typeof import('node:http');
// node:crypto the same way: its ES namespace would load Web Crypto through the lazy webcrypto export.
const { createHash, timingSafeEqual } = process.getBuiltinModule('node:crypto');

/** What a route handler gets. */
export interface RouteInput {
  params: string[];
  query: Record<string, string>;
  body: unknown;
  req: IncomingMessage;
  res: ServerResponse;
}

/** What the control server itself needs of an engine (a files-only engine has no more than this and its files). */
export interface ControlContext {
  readonly options: { readonly secret: string };
  readonly log: Logger;
  readonly stopping: boolean;
}

/**
 * A control API route. A `stream` route writes the response itself; a `raw` route reads the request body itself
 * (bytes, not JSON: `bodyChunks` bounds it), so `body` is undefined for it.
 */
export interface Route<C extends ControlContext = EngineContext> {
  method: 'GET' | 'PUT' | 'POST' | 'DELETE';
  path: RegExp;
  stream?: boolean;
  raw?: boolean;
  handler(ctx: C, input: RouteInput): unknown | Promise<unknown>;
}

/** A non-200 answer of a route. */
export class Reply {
  readonly status: number;
  readonly body: unknown;
  constructor(status: number, body: unknown) {
    this.status = status;
    this.body = body;
  }
}

/** A 200 answer whose body is UTF-8 JSON already (the big lists, built by SQLite). */
export class RawJson {
  readonly bytes: Uint8Array;
  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
  }
}

/** A 200 answer of bytes (a file), sent as they are with their content type. */
export class Bytes {
  readonly bytes: Uint8Array;
  readonly contentType: string;
  constructor(bytes: Uint8Array, contentType = 'application/octet-stream') {
    this.bytes = bytes;
    this.contentType = contentType;
  }
}

/** Largest request body: a 200x200 world as JSON is about 2 MB; a file of the file API at most this. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

const tooLarge = (limit: number) => new EngineError(413, `Request body is larger than ${limit / 1048576} MB.`);

/** A raw route's request body, chunk by chunk, refused (413) as soon as more than `limit` bytes have come. */
export async function* bodyChunks(req: IncomingMessage, limit = MAX_BODY_BYTES): AsyncGenerator<Buffer> {
  let size = 0;
  for await (const chunk of whole(req)) {
    size += chunk.length;
    if (size > limit) throw tooLarge(limit);
    yield chunk;
  }
}

/**
 * A request body's chunks, ending in a 400 when the client went away before sending all of it: a refusal of its
 * own (not an engine failure for the console), and never a short body taken as the whole.
 */
export async function* whole(req: IncomingMessage): AsyncGenerator<Buffer> {
  const cutShort = () => new EngineError(400, 'The request body was cut short.');
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) yield chunk;
  } catch (error) {
    throw req.complete ? error : cutShort();
  }
  if (!req.complete) throw cutShort();
}

/** Reads and drops the rest of a request body of at most MAX_BODY_BYTES; false for a larger one or a broken one. */
async function drained(req: IncomingMessage): Promise<boolean> {
  const declared = Number(req.headers['content-length']);
  if (!(declared <= MAX_BODY_BYTES) || req.readableEnded || req.destroyed) return false;
  try {
    for await (const _ of req as AsyncIterable<Buffer>);
    return req.complete;
  } catch {
    return false;
  }
}

const digest = (s: string) => createHash('sha256').update(s).digest();

function send(res: ServerResponse, status: number, body: unknown): void {
  if (body instanceof Bytes) {
    res.writeHead(status, { 'content-type': body.contentType, 'content-length': body.bytes.length });
    res.end(body.bytes);
    return;
  }
  // Encoded once: the world list can be most of a megabyte.
  const bytes = body instanceof RawJson ? body.bytes : Buffer.from(JSON.stringify(body));
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': bytes.length });
  res.end(bytes);
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of bodyChunks(req)) chunks.push(chunk);
  if (chunks.length === 0) return undefined;
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new EngineError(400, 'Request body is not valid JSON.');
  }
}

/** Starts the control API: bearer-secret auth, JSON in and out (bytes for the file routes), errors as `{error}`. */
export function startControlServer<C extends ControlContext>(
  ctx: C,
  routes: Route<C>[],
  host: string,
  port: number,
): Promise<Server> {
  const secret = digest(ctx.options.secret);
  const authorized = (header: string | undefined) =>
    !!header?.startsWith('Bearer ') && timingSafeEqual(digest(header.slice(7)), secret);

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    const url = new URL(req.url ?? '/', 'http://control');
    // Routes match the path as sent: URL parsing would resolve `..` and `%2e%2e` segments, and a file name
    // must be refused as the name it is (files/names.ts), not matched as some other path.
    const path = (req.url?.startsWith('/') ? req.url.split('?', 1)[0] : undefined) ?? url.pathname;
    // Only a caller holding the secret has an unread body read for it (below); anyone else is cut off.
    let authed = false;
    try {
      if (!authorized(req.headers.authorization)) throw new EngineError(401, 'Missing or wrong bearer secret.');
      authed = true;
      if (ctx.stopping) throw new EngineError(409, 'The engine is stopping.');
      let route: Route<C> | undefined;
      let match: RegExpExecArray | null = null;
      for (const r of routes) {
        match = r.method === req.method ? r.path.exec(path) : null;
        if (match) {
          route = r;
          break;
        }
      }
      if (!route || !match) throw new EngineError(404, `No route for ${req.method} ${path}.`);
      const params = match.slice(1).map((p) => {
        try {
          return decodeURIComponent(p);
        } catch {
          throw new EngineError(400, `Bad escape in the path: ${p}`);
        }
      });
      const body = !route.raw && (req.method === 'PUT' || req.method === 'POST') ? await readBody(req) : undefined;
      const query = Object.fromEntries(url.searchParams);
      const result = await route.handler(ctx, { params, query, body, req, res });
      if (route.stream) return;
      if (result instanceof Reply) send(res, result.status, result.body);
      else send(res, 200, result);
    } catch (error) {
      // A full disk is not a bug: it gets its own status, so the api can say what happened.
      const status = error instanceof EngineError ? error.status : isDiskFull(error) ? 507 : 500;
      if (status >= 500) ctx.log.error(`Control ${req.method} ${path} failed: ${errorMessage(error)}`);
      // An unread body would otherwise stall the connection. One of a size a route takes is read and dropped first:
      // a client still sending it (a file refused by its name) would meet a closed socket instead of the answer.
      if (!req.complete && !(authed && (await drained(req)))) res.setHeader('connection', 'close');
      if (!res.headersSent)
        send(res, status, {
          error:
            status === 507
              ? DISK_FULL_MESSAGE
              : status === 500
                ? `Internal error: ${errorMessage(error)}`
                : errorMessage(error),
          ...(error instanceof EngineError && error.code ? { code: error.code } : {}),
        });
    } finally {
      ctx.log.debug(`control ${req.method} ${path} ${res.statusCode} ${(performance.now() - started).toFixed(1)}ms`);
    }
  };

  const server = createServer({ keepAliveTimeout: 5000 }, (req, res) => {
    void handle(req, res);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      server.on('error', (error) => ctx.log.error(`Control server: ${error.message}`));
      resolve(server);
    });
  });
}
