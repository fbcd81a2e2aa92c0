// ?watch=true: a chunked response of JSON lines {type, object}, as the API server's watch cache serves it.
import type { ServerResponse } from 'node:http';
import type { KubeObject, ResourceType } from './resources.ts';
import type { Selector } from './selectors.ts';
import { expired } from './status.ts';
import type { Store, StoreEvent } from './store.ts';

export interface WatchRequest {
  type: ResourceType;
  /** undefined: every namespace. */
  namespace: string | undefined;
  select: Selector;
  resourceVersion: string | null;
  allowBookmarks: boolean;
  /** sendInitialEvents=true: the current objects as ADDED, then a BOOKMARK marking their end. */
  sendInitialEvents: boolean;
  timeoutSeconds: number | undefined;
  bookmarkIntervalMs: number;
}

/**
 * Streams the watch until the client goes or `timeoutSeconds` pass. From resourceVersion N it replays the kept
 * events after N (an ERROR event with a 410 Expired Status, as the watch cache sends, when some are no longer kept);
 * without one (or "0") it starts with the current objects as ADDED. An object that stops (starts) matching the
 * selectors arrives as DELETED (ADDED), like from the real watch cache.
 */
export function serveWatch(store: Store, res: ServerResponse, req: WatchRequest): () => void {
  res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private' });
  res.flushHeaders();
  const send = (type: string, object: unknown) => res.write(`${JSON.stringify({ type, object })}\n`);
  const inScope = (object: KubeObject) =>
    (req.namespace === undefined || object.metadata.namespace === req.namespace) && req.select(object);
  const deliver = (event: StoreEvent) => {
    if (event.resource !== req.type) return;
    const now = inScope(event.object);
    if (event.type !== 'MODIFIED') {
      if (now) send(event.type, event.object);
      return;
    }
    const before = event.previous ? inScope(event.previous) : false;
    if (now) send(before ? 'MODIFIED' : 'ADDED', event.object);
    else if (before) send('DELETED', event.object);
  };
  const bookmark = (annotations?: Record<string, string>) =>
    send('BOOKMARK', {
      kind: req.type.kind,
      apiVersion: req.type.apiVersion,
      metadata: { resourceVersion: String(store.rv), ...(annotations ? { annotations } : {}) },
    });

  const rv = req.resourceVersion;
  if (!rv || rv === '0' || req.sendInitialEvents) {
    for (const object of store.list(req.type, req.namespace)) if (req.select(object)) send('ADDED', object);
    if (req.sendInitialEvents && req.allowBookmarks) bookmark({ 'k8s.io/initial-events-end': 'true' });
  } else {
    const events = /^\d+$/.test(rv) ? store.since(Number(rv)) : 'expired';
    if (events === 'expired') {
      send('ERROR', expired(rv, store.oldest));
      res.end();
      return () => {};
    }
    for (const event of events) deliver(event);
  }

  const unsubscribe = store.subscribe(deliver);
  const timers: NodeJS.Timeout[] = [];
  const stop = () => {
    unsubscribe();
    for (const timer of timers) clearTimeout(timer);
    if (!res.writableEnded) res.end();
  };
  if (req.allowBookmarks) timers.push(setInterval(() => bookmark(), req.bookmarkIntervalMs));
  if (req.timeoutSeconds !== undefined) timers.push(setTimeout(stop, req.timeoutSeconds * 1000));
  res.on('close', stop);
  return stop;
}
