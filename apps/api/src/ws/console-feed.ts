import { type ServerSocketMessage, serverPageMessages } from '@canopy/contract';
import { WebSocket } from 'ws';

/** Past this many bytes waiting in a socket, new lines are dropped instead of queued. */
export const MAX_BUFFERED_BYTES = 1024 * 1024;

/**
 * One browser's console subscription. Lines that arrive together go out in one frame; a browser that
 * cannot keep up loses lines (counted, then announced in one line) rather than growing the api's memory.
 */
export class ConsoleFeed {
  readonly serverId: string;
  private readonly ws: WebSocket;
  private pending: string[] = [];
  private dropped = 0;
  private scheduled = false;

  constructor(ws: WebSocket, serverId: string, history: string[]) {
    this.ws = ws;
    this.serverId = serverId;
    this.send({ type: 'console_history', payload: { lines: history } });
  }

  push(line: string) {
    if (this.ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.dropped++;
      return;
    }
    this.pending.push(line);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  private flush() {
    this.scheduled = false;
    if (this.ws.readyState !== WebSocket.OPEN) {
      this.pending = [];
      return;
    }
    const lines = this.pending;
    this.pending = [];
    if (this.dropped > 0) {
      lines.unshift(serverPageMessages.linesDropped(this.dropped));
      this.dropped = 0;
    }
    if (lines.length === 1) this.send({ type: 'console_log', payload: { line: lines[0] ?? '' } });
    else if (lines.length > 1) this.send({ type: 'console_batch', payload: { lines } });
  }

  private send(message: ServerSocketMessage) {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }
}
