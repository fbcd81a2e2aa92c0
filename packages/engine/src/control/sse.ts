import type { ServerResponse } from 'node:http';
import type { EngineContext } from '../context.ts';

/** A stream client more than this far behind is dropped rather than buffered without bound. */
export const MAX_STREAM_BACKLOG_BYTES = 1024 * 1024;
const HEARTBEAT_MS = 15_000;

const open = new Set<ServerResponse>();

/**
 * Serves the console as Server-Sent Events: the kept lines after `after` (when given), then each
 * new line as `id: <seq>` + `data: {"seq":n,"line":"..."}`. A client whose unsent backlog
 * passes MAX_STREAM_BACKLOG_BYTES is disconnected; it reconnects with Last-Event-ID and gets the
 * lines it missed from the history, as far as the ring still holds them.
 */
export function streamConsole(ctx: EngineContext, res: ServerResponse, after: number | undefined): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  res.flushHeaders();
  open.add(res);
  const write = (seq: number, line: string) => {
    res.write(`id: ${seq}\ndata: ${JSON.stringify({ seq, line })}\n\n`);
    if (res.writableLength > MAX_STREAM_BACKLOG_BYTES) res.destroy();
  };
  if (after !== undefined) for (const l of ctx.log.history(after)) write(l.seq, l.line);
  const unsubscribe = ctx.log.subscribe((l) => write(l.seq, l.line));
  const heartbeat = setInterval(() => res.write(': ping\n\n'), HEARTBEAT_MS);
  heartbeat.unref();
  res.on('close', () => {
    unsubscribe();
    clearInterval(heartbeat);
    open.delete(res);
  });
}

/** Ends every console stream (at stop). */
export function closeStreams(): void {
  for (const res of open) res.end();
}
