import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type ServerSocketMessage, serverPageMessages, serverSocketMessageSchema } from '@canopy/contract';
import { WebSocket } from 'ws';
import { CONSOLE_WINDOW_MS, ConsoleFeed, ConsoleHub, MAX_BUFFERED_BYTES } from '../src/ws/console-feed.ts';
import { manualTimers } from './support/manual-timers.ts';

/** Just what the hub uses of a socket: its state, what waits in its buffer, and what it was sent. */
function fakeSocket() {
  const messages: ServerSocketMessage[] = [];
  const socket = {
    readyState: WebSocket.OPEN as number,
    bufferedAmount: 0,
    send(data: string | Buffer, options?: { binary?: boolean }) {
      // The web reads text frames only.
      if (typeof data !== 'string') assert.equal(options?.binary, false, 'sent as a text frame');
      messages.push(serverSocketMessageSchema.parse(JSON.parse(String(data))));
    },
  };
  return { socket, messages, ws: socket as unknown as WebSocket };
}

/** The console lines a socket received after its history, in order. */
const liveLines = (messages: ServerSocketMessage[]) =>
  messages.flatMap((m) =>
    m.type === 'console_log' ? [m.payload.line] : m.type === 'console_batch' ? m.payload.lines : [],
  );

const setup = () => {
  const clock = manualTimers();
  const hub = new ConsoleHub(clock.timers);
  /** `batch`: the socket asked for console_batch frames (the web app); else a client written to the spec. */
  const subscribe = (serverId: string, history: string[] = [], batch = true) => {
    const s = fakeSocket();
    const feed = new ConsoleFeed(s.ws, serverId, history, batch);
    hub.add(feed);
    return { ...s, feed };
  };
  return { clock, hub, subscribe };
};

describe('ConsoleHub', () => {
  it('sends a line after quiet at once, as the console_log the web appends', () => {
    const { clock, hub, subscribe } = setup();
    const a = subscribe('s1', ['old']);
    hub.push('s1', 'hello');
    clock.advance(0);
    assert.deepEqual(a.messages, [
      { type: 'console_history', payload: { lines: ['old'] } },
      { type: 'console_log', payload: { line: 'hello' } },
    ]);
  });

  it('batches lines under load into console_batch frames, every line once and in order, for each subscriber', () => {
    const { clock, hub, subscribe } = setup();
    const a = subscribe('s1');
    const b = subscribe('s1');
    const spec = subscribe('s1', [], false);
    const other = subscribe('s2');
    const sent: string[] = [];
    for (let ms = 0; ms < 200; ms++) {
      for (let i = 0; i < 25; i++) {
        const line = `line ${sent.length}`;
        sent.push(line);
        hub.push('s1', line);
      }
      clock.advance(1);
    }
    clock.advance(CONSOLE_WINDOW_MS);
    for (const c of [a, b]) {
      assert.deepEqual(liveLines(c.messages), sent);
      const frames = c.messages.length - 1;
      // 200 ms of load: one frame per window (plus the first, sent at once), not one per line or per turn.
      assert.ok(frames <= 200 / CONSOLE_WINDOW_MS + 2, `${frames} frames`);
      assert.ok(
        c.messages.some((m) => m.type === 'console_batch'),
        'a socket that asked for batches gets them',
      );
    }
    // A client written to the spec never sees console_batch: one console_log per line, in order.
    assert.deepEqual(liveLines(spec.messages), sent);
    assert.ok(spec.messages.slice(1).every((m) => m.type === 'console_log'));
    assert.equal(spec.messages.length, sent.length + 1);
    assert.deepEqual(other.messages, [{ type: 'console_history', payload: { lines: [] } }], "s2's feed hears nothing");
  });

  it('does not repeat to a new subscriber the waiting lines its history already holds', () => {
    const { clock, hub, subscribe } = setup();
    const a = subscribe('s1');
    hub.push('s1', 'l1');
    clock.advance(0); // l1 goes out: the window starts
    hub.push('s1', 'l2');
    hub.push('s1', 'l3'); // l2 and l3 wait for the window; the history a subscriber gets now ends with them
    const b = subscribe('s1', ['l1', 'l2', 'l3']);
    hub.push('s1', 'l4');
    clock.advance(CONSOLE_WINDOW_MS);
    hub.push('s1', 'l5');
    clock.advance(CONSOLE_WINDOW_MS);
    assert.deepEqual(liveLines(a.messages), ['l1', 'l2', 'l3', 'l4', 'l5']);
    assert.deepEqual(b.messages[0], { type: 'console_history', payload: { lines: ['l1', 'l2', 'l3'] } });
    assert.deepEqual(liveLines(b.messages), ['l4', 'l5'], 'each line once, in order, after the history');
    const c = subscribe('s1', ['l1', 'l2', 'l3', 'l4', 'l5']);
    hub.push('s1', 'l6');
    clock.advance(CONSOLE_WINDOW_MS);
    assert.deepEqual(liveLines(c.messages), ['l6'], 'nothing was waiting: nothing skipped');
  });

  it("skips the waiting lines a spec client's history holds, and sends it the rest line by line", () => {
    const { clock, hub, subscribe } = setup();
    subscribe('s1');
    hub.push('s1', 'l1');
    clock.advance(0);
    hub.push('s1', 'l2');
    hub.push('s1', 'l3');
    const spec = subscribe('s1', ['l1', 'l2', 'l3'], false); // l2 and l3 wait for the frame its history holds
    hub.push('s1', 'l4');
    hub.push('s1', 'l5');
    clock.advance(CONSOLE_WINDOW_MS);
    assert.deepEqual(spec.messages.slice(1), [
      { type: 'console_log', payload: { line: 'l4' } },
      { type: 'console_log', payload: { line: 'l5' } },
    ]);
  });

  it('skips lines for a socket that stops reading and says how many once it reads again', () => {
    const { clock, hub, subscribe } = setup();
    const reader = subscribe('s1');
    const sleeper = subscribe('s1');
    hub.push('s1', 'a');
    clock.advance(0);
    sleeper.socket.bufferedAmount = MAX_BUFFERED_BYTES + 1;
    for (const line of ['b', 'c', 'd']) hub.push('s1', line);
    clock.advance(CONSOLE_WINDOW_MS);
    sleeper.socket.bufferedAmount = 0;
    hub.push('s1', 'e');
    clock.advance(CONSOLE_WINDOW_MS);
    assert.deepEqual(liveLines(reader.messages), ['a', 'b', 'c', 'd', 'e']);
    assert.deepEqual(liveLines(sleeper.messages), ['a', serverPageMessages.linesDropped(3), 'e']);
  });

  it('stops serving a server once its last subscriber leaves, dropping what waited', () => {
    const { clock, hub, subscribe } = setup();
    const a = subscribe('s1');
    hub.push('s1', 'a');
    clock.advance(0);
    hub.push('s1', 'waiting');
    hub.remove(a.feed);
    clock.advance(CONSOLE_WINDOW_MS);
    assert.deepEqual(liveLines(a.messages), ['a']);
    assert.deepEqual(clock.scheduled(), []);
    const again = subscribe('s1');
    hub.push('s1', 'b');
    clock.advance(0);
    assert.deepEqual(liveLines(again.messages), ['b'], 'a new subscriber starts from quiet');
  });

  it('skips a closed socket', () => {
    const { clock, hub, subscribe } = setup();
    const a = subscribe('s1');
    a.socket.readyState = WebSocket.CLOSED;
    hub.push('s1', 'x');
    clock.advance(0);
    assert.deepEqual(a.messages, [{ type: 'console_history', payload: { lines: [] } }]);
  });
});
