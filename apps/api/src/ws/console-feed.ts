import { type ServerSocketMessage, serverPageMessages } from '@canopy/contract';
import { WebSocket } from 'ws';
import type { ConsoleTally } from '../metrics/metrics.ts';
import { type CoalescerTimers, FrameCoalescer } from './frame-coalescer.ts';

/** Past this many bytes waiting in a socket, new lines are dropped for it instead of queued. */
export const MAX_BUFFERED_BYTES = 1024 * 1024;
/**
 * Under load, one console frame per server per this many ms: 25k lines/s reach a browser in about 200 frames/s
 * instead of one per event-loop turn, and a line waits at most this long. Quiet consoles are not delayed.
 */
export const CONSOLE_WINDOW_MS = 5;
/** Lines in one frame at most (a max-rate flood): a full frame goes out at once, so frames stay small. */
export const CONSOLE_FRAME_LINES = 1000;

/** One browser's console subscription; counts what it had to skip. */
export class ConsoleFeed {
  readonly serverId: string;
  readonly ws: WebSocket;
  /**
   * The socket asked for console_batch frames (`?batch=1`, our web app). Every other client gets the spec's
   * messages only: one console_log per line, in order.
   */
  readonly batch: boolean;
  dropped = 0;
  /** Lines of the next frame already in this feed's history (they waited for the frame when it subscribed). */
  skip = 0;

  constructor(ws: WebSocket, serverId: string, history: string[], batch = false) {
    this.ws = ws;
    this.serverId = serverId;
    this.batch = batch;
    send(ws, { type: 'console_history', payload: { lines: history } });
  }
}

const send = (ws: WebSocket, message: ServerSocketMessage) => {
  if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
};

/** The subscribers of one server's console and the lines waiting for their frame. */
interface Audience {
  feeds: Set<ConsoleFeed>;
  frames: FrameCoalescer<string>;
}

/**
 * Fans a server's console out to its subscribers. Lines are grouped into frames (frame-coalescer.ts), each
 * serialised once for everyone; a browser that cannot keep up loses lines (counted, then announced in one
 * line) rather than growing the api's memory. Servers nobody follows cost nothing per line.
 */
export class ConsoleHub {
  private readonly audiences = new Map<string, Audience>();
  private readonly timers: CoalescerTimers | undefined;
  private readonly tally: ConsoleTally;

  /** `timers` is for tests (the real clock by default); `tally` counts lines delivered and dropped (the api's metrics). */
  constructor(timers?: CoalescerTimers, tally: ConsoleTally = { delivered: 0, dropped: 0 }) {
    this.tally = tally;
    this.timers = timers;
  }

  add(feed: ConsoleFeed) {
    let audience = this.audiences.get(feed.serverId);
    if (!audience) {
      const feeds = new Set<ConsoleFeed>();
      const frames = new FrameCoalescer<string>((lines) => deliver(feeds, lines, this.tally), {
        windowMs: CONSOLE_WINDOW_MS,
        maxItems: CONSOLE_FRAME_LINES,
        timers: this.timers,
      });
      audience = { feeds, frames };
      this.audiences.set(feed.serverId, audience);
    }
    // The history a feed starts with is taken in the same turn, so it ends with exactly the lines waiting now.
    feed.skip = audience.frames.waiting;
    audience.feeds.add(feed);
  }

  remove(feed: ConsoleFeed | null) {
    if (!feed) return;
    const audience = this.audiences.get(feed.serverId);
    if (!audience?.feeds.delete(feed) || audience.feeds.size > 0) return;
    audience.frames.dispose();
    this.audiences.delete(feed.serverId);
  }

  push(serverId: string, line: string) {
    this.audiences.get(serverId)?.frames.push(line);
  }
}

/** One line keeps the spec's console_log; several go as a console_batch, which the web appends the same way. */
const linesMessage = (lines: string[]): ServerSocketMessage =>
  lines.length === 1
    ? { type: 'console_log', payload: { line: lines[0] ?? '' } }
    : { type: 'console_batch', payload: { lines } };

// Encoded once per frame for all sockets: ws would turn a string into UTF-8 again for every socket.
const encode = (message: ServerSocketMessage) => Buffer.from(JSON.stringify(message));
const encodeLine = (line: string) => encode({ type: 'console_log', payload: { line } });

/** Sends lines to one socket as it asked for them: one frame, or one console_log per line. */
function sendLines(feed: ConsoleFeed, lines: string[]) {
  if (feed.batch) send(feed.ws, linesMessage(lines));
  else for (const line of lines) send(feed.ws, { type: 'console_log', payload: { line } });
}

/**
 * Sends one frame of lines to every subscriber that is reading. Counted once per frame and socket, with plain
 * additions: a prom-client call per line would cost the fan-out at 100k+ lines/s.
 */
function deliver(feeds: Set<ConsoleFeed>, lines: string[], tally: ConsoleTally) {
  // Each encoding is made at most once per frame, and only when a subscriber takes it. `binary: false` keeps a text frame.
  let batched: Buffer | undefined;
  let perLine: Buffer[] | undefined;
  for (const feed of feeds) {
    const own = feed.skip > 0 ? lines.slice(feed.skip) : lines;
    feed.skip = 0;
    if (own.length === 0 || feed.ws.readyState !== WebSocket.OPEN) continue;
    if (feed.ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      feed.dropped += own.length;
      tally.dropped += own.length;
      continue;
    }
    tally.delivered += own.length;
    if (feed.dropped > 0) {
      send(feed.ws, { type: 'console_log', payload: { line: serverPageMessages.linesDropped(feed.dropped) } });
      feed.dropped = 0;
    }
    if (own !== lines) sendLines(feed, own);
    else if (feed.batch) {
      batched ??= encode(linesMessage(lines));
      feed.ws.send(batched, { binary: false });
    } else {
      perLine ??= lines.map(encodeLine);
      for (const data of perLine) feed.ws.send(data, { binary: false });
    }
  }
}
