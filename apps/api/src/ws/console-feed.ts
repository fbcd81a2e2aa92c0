import { type ServerSocketMessage, serverPageMessages } from '@canopy/contract';
import { WebSocket } from 'ws';

/** Past this many bytes waiting in a socket, new lines are dropped for it instead of queued. */
export const MAX_BUFFERED_BYTES = 1024 * 1024;

/** One browser's console subscription; counts what it had to skip. */
export class ConsoleFeed {
  readonly serverId: string;
  readonly ws: WebSocket;
  dropped = 0;

  constructor(ws: WebSocket, serverId: string, history: string[]) {
    this.ws = ws;
    this.serverId = serverId;
    send(ws, { type: 'console_history', payload: { lines: history } });
  }
}

const send = (ws: WebSocket, message: ServerSocketMessage) => {
  if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
};

/**
 * Fans a server's console out to its subscribers. Lines that arrive together go out as one frame that is
 * serialised once for everyone; a browser that cannot keep up loses lines (counted, then announced in
 * one line) rather than growing the api's memory.
 */
export class ConsoleHub {
  private readonly feeds = new Set<ConsoleFeed>();
  private readonly pending = new Map<string, string[]>();
  private scheduled = false;

  add(feed: ConsoleFeed) {
    this.feeds.add(feed);
  }

  remove(feed: ConsoleFeed | null) {
    if (feed) this.feeds.delete(feed);
  }

  push(serverId: string, line: string) {
    if (this.feeds.size === 0) return;
    const lines = this.pending.get(serverId);
    if (lines) lines.push(line);
    else this.pending.set(serverId, [line]);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  private flush() {
    this.scheduled = false;
    const batches = [...this.pending];
    this.pending.clear();
    for (const [serverId, lines] of batches) {
      const message: ServerSocketMessage =
        lines.length === 1
          ? { type: 'console_log', payload: { line: lines[0] ?? '' } }
          : { type: 'console_batch', payload: { lines } };
      const data = JSON.stringify(message);
      for (const feed of this.feeds) {
        if (feed.serverId !== serverId || feed.ws.readyState !== WebSocket.OPEN) continue;
        if (feed.ws.bufferedAmount > MAX_BUFFERED_BYTES) {
          feed.dropped += lines.length;
          continue;
        }
        if (feed.dropped > 0) {
          send(feed.ws, { type: 'console_log', payload: { line: serverPageMessages.linesDropped(feed.dropped) } });
          feed.dropped = 0;
        }
        feed.ws.send(data);
      }
    }
  }
}
