// The HTTP face of the stand-in: bearer-token auth, routing of the REST paths, JSON bodies, Status answers.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Api, DeleteOptions } from './api.ts';
import { discovery } from './discovery.ts';
import { type KubeObject, resourceType } from './resources.ts';
import { fieldSelector, labelSelector } from './selectors.ts';
import { badRequest, methodNotAllowed, namespaceNotFound, pathNotFound, StatusError, unauthorized } from './status.ts';
import { serveWatch } from './watch.ts';

/** Serves GET pods/{name}/log; answers by itself (a follow streams until the container stops). */
export type LogHandler = (namespace: string, name: string, query: URLSearchParams, res: ServerResponse) => void;

export interface HttpOptions {
  api: Api;
  token: string;
  logs: LogHandler;
  bookmarkIntervalMs: number;
  /** Called with every request, for tests that look at what the driver asked. */
  record: (entry: { method: string; path: string; status: number }) => void;
}

const MAX_BODY = 3 * 1024 * 1024;

// /api/v1[/namespaces/{ns}]/{plural}[/{name}[/{sub}]] and /apis/{group}/v1[/namespaces/{ns}]/{plural}[/{name}[/{sub}]]
const RESOURCE =
  /^\/(?:api\/v1|apis\/(agones\.dev)\/v1)(?:\/namespaces\/([^/]+))?\/([a-z]+)(?:\/([^/]+))?(?:\/(status|log))?$/;
const NAMESPACE = /^\/api\/v1\/namespaces\/([^/]+)$/;

/** The request handler for node:http's createServer. */
export function handler(opts: HttpOptions) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const done = (status: number) => opts.record({ method: req.method ?? '', path: url.pathname + url.search, status });
    route(opts, req, res, url)
      .then(() => done(res.statusCode))
      .catch((error: unknown) => {
        const status =
          error instanceof StatusError
            ? error.status
            : {
                kind: 'Status',
                apiVersion: 'v1',
                metadata: {},
                status: 'Failure',
                message: String(error),
                reason: 'InternalError',
                code: 500,
              };
        if (!(error instanceof StatusError)) console.error('k8s stand-in:', error);
        done(status.code);
        if (res.headersSent) res.destroy();
        else json(res, status.code, status);
      });
  };
}

function json(res: ServerResponse, code: number, body: unknown, warnings: string[] = []) {
  const headers: Record<string, string | string[]> = { 'Content-Type': 'application/json' };
  if (warnings.length) headers.Warning = warnings.map((w) => `299 - ${JSON.stringify(w)}`);
  res.writeHead(code, headers);
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY)
      throw new StatusError({
        ...badRequest('').status,
        code: 413,
        reason: 'RequestEntityTooLarge',
        message: 'Request entity too large',
      });
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text.trim()) return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw badRequest(`the body of the request could not be decoded: ${(error as Error).message}`);
  }
}

async function route(opts: HttpOptions, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const { api } = opts;
  if (req.headers.authorization !== `Bearer ${opts.token}`) throw unauthorized();
  const method = req.method ?? 'GET';
  const query = url.searchParams;
  const found = discovery(url.pathname.replace(/\/$/, ''), req.headers.host ?? '');
  if (found !== undefined) return method === 'GET' ? json(res, 200, found) : Promise.reject(methodNotAllowed());
  if (['/healthz', '/livez', '/readyz'].includes(url.pathname)) {
    res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
    return;
  }
  const ns = NAMESPACE.exec(url.pathname);
  if (ns && method === 'GET') {
    if (!api.namespaces.has(ns[1] ?? '')) throw namespaceNotFound(ns[1] ?? '');
    return json(res, 200, {
      kind: 'Namespace',
      apiVersion: 'v1',
      metadata: { name: ns[1] },
      status: { phase: 'Active' },
    });
  }
  const m = RESOURCE.exec(url.pathname);
  const type = m && resourceType(m[1] ?? '', m[3] ?? '');
  if (!m || !type) throw pathNotFound();
  const [, , namespace, , name, sub] = m;
  const decoded = name === undefined ? undefined : decodeURIComponent(name);
  if (sub === 'log') {
    if (type.kind !== 'Pod' || method !== 'GET' || !namespace || !decoded) throw pathNotFound();
    return opts.logs(namespace, decoded, query, res);
  }
  if (sub === 'status' && !type.statusSubresource) throw pathNotFound();
  const write = {
    strict: query.get('fieldValidation') === 'Strict',
    dryRun: query.get('dryRun') === 'All',
    status: sub === 'status',
  };

  const watching = query.get('watch') === 'true' || query.get('watch') === '1';
  if (method === 'GET' && (decoded === undefined || watching)) {
    const labels = labelSelector(query.get('labelSelector'));
    const fields = fieldSelector(query.get('fieldSelector'));
    // A watch on one object's URL is a watch of the list narrowed to its name.
    const select = (o: KubeObject) => labels(o) && fields(o) && (decoded === undefined || o.metadata.name === decoded);
    if (watching) {
      const timeout = query.get('timeoutSeconds');
      serveWatch(api.store, res, {
        type,
        namespace,
        select,
        resourceVersion: query.get('resourceVersion'),
        allowBookmarks: query.get('allowWatchBookmarks') === 'true',
        sendInitialEvents: query.get('sendInitialEvents') === 'true',
        timeoutSeconds: timeout ? Number(timeout) : undefined,
        bookmarkIntervalMs: opts.bookmarkIntervalMs,
      });
      return;
    }
    return json(res, 200, list(opts, type, namespace, select, query));
  }
  if (decoded === undefined) {
    if (method === 'POST') {
      if (!namespace) throw methodNotAllowed();
      const { object, warnings } = api.create(type, namespace, await readBody(req), write);
      return json(res, 201, object, warnings);
    }
    throw methodNotAllowed();
  }
  if (!namespace) throw pathNotFound();
  switch (method) {
    case 'GET':
      return json(res, 200, api.store.require(type, namespace, decoded));
    case 'PUT': {
      const { object, warnings } = api.replace(type, namespace, decoded, await readBody(req), write);
      return json(res, 200, object, warnings);
    }
    case 'PATCH': {
      const body = await readBody(req);
      const { object, warnings } = api.patch(type, namespace, decoded, body, req.headers['content-type'] ?? '', write);
      return json(res, 200, object, warnings);
    }
    case 'DELETE': {
      const body = ((await readBody(req)) ?? {}) as DeleteOptions;
      const grace = query.get('gracePeriodSeconds');
      const options: DeleteOptions = {
        ...body,
        gracePeriodSeconds: grace !== null ? Number(grace) : body.gracePeriodSeconds,
        dryRun: write.dryRun || (body as { dryRun?: string[] }).dryRun?.includes?.('All') === true,
      };
      return json(res, 200, api.delete(type, namespace, decoded, options));
    }
    default:
      throw methodNotAllowed();
  }
}

/** A list answer: `<Kind>List` with metadata.resourceVersion (what an informer's watch starts from). */
function list(
  opts: HttpOptions,
  type: NonNullable<ReturnType<typeof resourceType>>,
  namespace: string | undefined,
  select: (o: KubeObject) => boolean,
  query: URLSearchParams,
) {
  const { store } = opts.api;
  let items = store.list(type, namespace).filter(select);
  const limit = Number(query.get('limit') ?? 0);
  const token = query.get('continue');
  let resourceVersion = String(store.rv);
  if (token) {
    const state = JSON.parse(Buffer.from(token, 'base64url').toString()) as { rv: string; after: string };
    resourceVersion = state.rv;
    items = items.filter((o) => `${o.metadata.namespace}/${o.metadata.name}` > state.after);
  }
  let next: string | undefined;
  if (limit > 0 && items.length > limit) {
    const last = items[limit - 1] as KubeObject;
    next = Buffer.from(
      JSON.stringify({ rv: resourceVersion, after: `${last.metadata.namespace}/${last.metadata.name}` }),
    ).toString('base64url');
    items = items.slice(0, limit);
  }
  // Items of a built-in kind's list carry no apiVersion and kind (Go's typed encoding leaves them out).
  if (!type.group)
    for (const item of items) {
      delete item.apiVersion;
      delete item.kind;
    }
  return {
    kind: `${type.kind}List`,
    apiVersion: type.apiVersion,
    metadata: { resourceVersion, ...(next ? { continue: next } : {}) },
    items,
  };
}
