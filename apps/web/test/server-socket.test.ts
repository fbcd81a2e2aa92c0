import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  createServerSocket,
  parseSocketMessage,
  type ServerSocketDeps,
  type SocketLike,
  socketUrl,
} from '../src/lib/server-socket.ts';

/** A scriptable WebSocket: the test opens, closes and pushes frames. */
class FakeSocket {
  onopen: SocketLike['onopen'] = null;
  onclose: SocketLike['onclose'] = null;
  onmessage: SocketLike['onmessage'] = null;
  sent: string[] = [];
  closedWith: number | null = null;
  readonly url: string;
  constructor(url: string) {
    this.url = url;
  }
  send(data: string) {
    this.sent.push(data);
  }
  close(code?: number) {
    this.closedWith = code ?? 1005;
  }
  open() {
    this.onopen?.call(this as never, new Event('open'));
  }
  drop(code: number) {
    this.onclose?.call(this as never, { code } as CloseEvent);
  }
  push(data: unknown) {
    this.onmessage?.call(
      this as never,
      { data: typeof data === 'string' ? data : JSON.stringify(data) } as MessageEvent,
    );
  }
}

/** A socket with fake timers, recorded toasts and refreshes. */
function harness(overrides: Partial<ServerSocketDeps> = {}) {
  const sockets: FakeSocket[] = [];
  const timers: { fn: () => void; ms: number }[] = [];
  const events: string[] = [];
  let token: string | null = 't1';
  const socket = createServerSocket({
    url: (t) => `ws://host/ws/42?token=${t}`,
    getToken: () => token,
    refreshSession: async (failed) => {
      events.push(`refresh:${failed}`);
      token = 't2';
      return true;
    },
    createSocket: (url) => {
      const fake = new FakeSocket(url);
      sockets.push(fake);
      return fake as unknown as SocketLike;
    },
    onConnectionLost: () => events.push('lost'),
    onReconnected: () => events.push('reconnected'),
    setTimer: (fn, ms) => timers.push({ fn, ms }),
    clearTimer: () => events.push('cleared'),
    ...overrides,
  });
  const last = () => {
    const s = sockets.at(-1);
    if (!s) throw new Error('no socket');
    return s;
  };
  /** Runs the oldest pending timer and returns its delay. */
  const tick = () => {
    const t = timers.shift();
    if (!t) throw new Error('no timer');
    t.fn();
    return t.ms;
  };
  return { socket, sockets, timers, events, last, tick, setToken: (t: string | null) => (token = t) };
}

describe('socketUrl', () => {
  it('follows the page protocol and encodes the user id and token', () => {
    assert.equal(
      socketUrl({ protocol: 'http:', host: 'a:5173' }, '42', 'x.y'),
      'ws://a:5173/ws/42?token=x.y&batch=1',
      'the page asks for console_batch frames',
    );
    assert.equal(
      socketUrl({ protocol: 'https:', host: 'a.io' }, '4 2', 'a+b'),
      'wss://a.io/ws/4%202?token=a%2Bb&batch=1',
    );
  });
});

describe('parseSocketMessage', () => {
  it('accepts contract messages and rejects everything else', () => {
    const ok = { type: 'status_update', payload: { name: 'A', status: 'ONLINE', players: 2 } };
    assert.deepEqual(parseSocketMessage(JSON.stringify(ok)), ok);
    assert.equal(parseSocketMessage('not json'), null);
    assert.equal(parseSocketMessage(JSON.stringify({ type: 'status_update', payload: { name: 'A' } })), null);
    assert.equal(parseSocketMessage(JSON.stringify({ type: 'mystery', payload: {} })), null);
    assert.equal(parseSocketMessage(new ArrayBuffer(2)), null);
  });
});

describe('createServerSocket', () => {
  it('connects with the current token and reports CONNECTING then OPEN', () => {
    const h = harness();
    assert.equal(h.last().url, 'ws://host/ws/42?token=t1');
    assert.equal(h.socket.getState(), 'CONNECTING');
    let changes = 0;
    h.socket.subscribeState(() => changes++);
    h.last().open();
    assert.equal(h.socket.getState(), 'OPEN');
    assert.equal(changes, 1);
    assert.deepEqual(h.events, [], 'no toast on the first open');
  });

  it('hands valid messages to the subscribers of their type only', () => {
    const h = harness();
    h.last().open();
    const statuses: unknown[] = [];
    const logs: unknown[] = [];
    const off = h.socket.subscribe('status_update', (p) => statuses.push(p));
    h.socket.subscribe('console_log', (p) => logs.push(p.line));
    h.last().push({ type: 'status_update', payload: { name: 'A', status: 'ONLINE', players: 1 } });
    h.last().push({ type: 'status_update', payload: { name: 'A', status: 'SIDEWAYS', players: 1 } });
    h.last().push('{broken');
    h.last().push({ type: 'console_log', payload: { line: 'hello' } });
    off();
    h.last().push({ type: 'status_update', payload: { name: 'A', status: 'OFFLINE', players: 0 } });
    assert.deepEqual(statuses, [{ name: 'A', status: 'ONLINE', players: 1 }]);
    assert.deepEqual(logs, ['hello']);
  });

  it('keeps dispatching when one subscriber throws', (t) => {
    t.mock.method(console, 'error', () => {});
    const h = harness();
    const seen: string[] = [];
    h.socket.subscribe('console_log', () => {
      throw new Error('boom');
    });
    h.socket.subscribe('console_log', (p) => seen.push(p.line));
    h.last().push({ type: 'console_log', payload: { line: 'x' } });
    assert.deepEqual(seen, ['x']);
  });

  it('reconnects with backoff, toasts the loss once and the reconnection once', () => {
    const h = harness();
    h.last().open();
    h.last().drop(1006);
    assert.equal(h.socket.getState(), 'CLOSED');
    assert.equal(h.tick(), 1000);
    h.last().drop(1006);
    assert.equal(h.tick(), 2000);
    h.last().drop(1006);
    assert.equal(h.tick(), 4000);
    h.last().open();
    assert.deepEqual(h.events, ['lost', 'reconnected']);
    assert.equal(h.sockets.length, 4);
  });

  it('refreshes the session on 1008 and reconnects with the new token after 500 ms', async () => {
    const h = harness();
    h.last().open();
    h.last().drop(1008);
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(h.events, ['refresh:t1']);
    assert.equal(h.tick(), 500);
    assert.equal(h.last().url, 'ws://host/ws/42?token=t2');
    h.last().open();
    assert.deepEqual(h.events, ['refresh:t1'], 'a token refresh is not an outage');
  });

  it('does not retry after a normal close (1000)', () => {
    const h = harness();
    h.last().open();
    h.last().drop(1000);
    assert.equal(h.timers.length, 0);
    assert.equal(h.socket.getState(), 'CLOSED');
  });

  it('close() closes with 1000, cancels a pending retry and ignores the old socket', () => {
    const h = harness();
    h.last().open();
    const first = h.last();
    h.socket.close();
    assert.equal(first.closedWith, 1000);
    first.drop(1006);
    assert.equal(h.timers.length, 0);
    assert.deepEqual(h.events, []);

    const g = harness();
    g.last().drop(1006);
    g.socket.close();
    assert.ok(g.events.includes('cleared'));
  });

  it('stays closed without a token (signed out)', () => {
    const h = harness();
    h.setToken(null);
    h.last().drop(1006);
    h.tick();
    assert.equal(h.sockets.length, 1);
    assert.equal(h.socket.getState(), 'CLOSED');
  });

  it('sends only valid messages and only while open', () => {
    const h = harness();
    const command = { type: 'console_command', payload: { command: ' say hi ' } } as const;
    assert.equal(h.socket.send(command), false);
    h.last().open();
    assert.equal(h.socket.send(command), true);
    assert.equal(h.socket.send({ type: 'console_command', payload: { command: '   ' } }), false);
    assert.deepEqual(h.last().sent, ['{"type":"console_command","payload":{"command":"say hi"}}']);
  });
});
