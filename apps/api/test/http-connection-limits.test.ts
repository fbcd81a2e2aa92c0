import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { WebSocket } from 'ws';
import { loadConfig } from '../src/config.ts';
import { keepWhileAnswering } from '../src/http/connections.ts';
import { signIn } from './support/factories.ts';
import { startApi, type TestApi } from './support/harness.ts';

// Connection hygiene of the api's own server (ADR 0032): timeouts that close idle sockets and a per-address cap.
// Loopback has a whole /8: 127.0.0.2 is "another client" for the server.

/** A raw TCP socket to `url`'s port from `from`, reading whatever comes (a paused socket never sees the close). */
function rawSocket(url: string, from = '127.0.0.1') {
  const socket = connect({ host: '127.0.0.1', port: Number(new URL(url).port), localAddress: from });
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (d) => {
    received += d;
  });
  socket.on('error', () => {});
  // A refused socket may see a reset: that is a close too (once() would reject on the 'error').
  const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(received)));
  const connected = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return { socket, closed, received: () => received, connected };
}

/** One GET on a raw socket, resolved with the status line once the answer's head is in. */
async function getOn(socket: Socket, path: string, read: () => string): Promise<string> {
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  while (!read().includes('\r\n\r\n'))
    await new Promise<void>((resolve, reject) => {
      socket.once('data', () => resolve());
      socket.once('close', () => reject(new Error(`closed before an answer to ${path}`)));
    });
  return read().split('\r\n')[0] ?? '';
}

describe('api connections: headers, request and idle timeouts', () => {
  let api: TestApi;
  before(async () => {
    api = await startApi('sqlite', {
      CANOPY_HTTP_HEADERS_TIMEOUT_MS: '200',
      CANOPY_HTTP_REQUEST_TIMEOUT_MS: '400',
      CANOPY_HTTP_IDLE_TIMEOUT_MS: '300',
    });
  });
  after(() => api.close());

  // Without the timeouts these sockets stay open for a minute or more: the test's own timeout fails them.
  it('closes a socket that never sends a request', { timeout: 15_000 }, async () => {
    const silent = rawSocket(api.url);
    await silent.connected;
    await silent.closed;
  });

  it('closes a kept-alive socket once it idles after its answer', { timeout: 15_000 }, async () => {
    const kept = rawSocket(api.url);
    await kept.connected;
    assert.equal(await getOn(kept.socket, '/status', kept.received), 'HTTP/1.1 200 OK');
    await kept.closed;
  });

  it('closes a request whose body trickles in, with 408', { timeout: 15_000 }, async () => {
    const slow = rawSocket(api.url);
    await slow.connected;
    slow.socket.write('POST /auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\n');
    slow.socket.write('content-length: 100\r\n\r\n{"accessToken":');
    assert.match(await slow.closed, /^HTTP\/1\.1 408 /);
  });

  it('keeps a WebSocket open past every timeout: it answers a ping after them', { timeout: 15_000 }, async () => {
    const s = await signIn(api);
    const ws = new WebSocket(
      `${api.url.replace('http', 'ws')}/ws/${s.user.id}?token=${encodeURIComponent(s.sessionToken)}`,
    );
    await once(ws, 'open');
    // Longer than the headers, request and idle timeouts together: a wait, not a measurement.
    await new Promise((r) => setTimeout(r, 1200));
    assert.equal(ws.readyState, WebSocket.OPEN);
    ws.ping();
    await once(ws, 'pong');
    ws.close();
  });
});

describe('api connections: the per-address socket cap', () => {
  const CAP = 4;
  let api: TestApi;
  before(async () => {
    api = await startApi('sqlite', { CANOPY_HTTP_CONNECTIONS_PER_IP: String(CAP) });
  });
  after(() => api.close());

  it('closes the next socket of an address at its cap at once, while another address gets in', async (t) => {
    const held = Array.from({ length: CAP }, () => rawSocket(api.url, '127.0.0.2'));
    await Promise.all(held.map((h) => h.connected));
    t.after(() => {
      for (const h of held) h.socket.destroy();
    });
    const over = rawSocket(api.url, '127.0.0.2');
    await over.connected;
    over.socket.write('GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    assert.equal(await over.closed, '', 'closed without an answer');

    const [first] = held;
    assert.ok(first);
    assert.equal(await getOn(first.socket, '/status', first.received), 'HTTP/1.1 200 OK', 'the held ones work');
    const other = rawSocket(api.url, '127.0.0.3');
    await other.connected;
    assert.equal(await getOn(other.socket, '/status', other.received), 'HTTP/1.1 200 OK', 'another address');
    other.socket.destroy();

    // A socket that closed no longer counts: a new one from that address is served (once the server saw the close).
    first.socket.end();
    await first.closed;
    let status = '';
    for (let attempt = 0; attempt < 20 && !status; attempt++) {
      const again = rawSocket(api.url, '127.0.0.2');
      await again.connected;
      again.socket.write('GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      status = await getOn(again.socket, '/status', again.received).catch(() => '');
      again.socket.destroy();
      if (!status) await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal(status, 'HTTP/1.1 200 OK');
  });
});

describe('api connections: the idle timeout spares an answer still being worked on', () => {
  it('answers a request that takes longer than the idle timeout, on a socket where nothing moved', async () => {
    const server = createServer((_req, res) => {
      setTimeout(() => res.end('done'), 600);
    });
    server.setTimeout(150);
    keepWhileAnswering(server);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const address = server.address();
      const res = await fetch(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`);
      assert.equal(await res.text(), 'done');
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

describe('configuration: connection limits', () => {
  it('has defaults, and an empty variable is its default', () => {
    const expected = {
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 120_000,
      idleTimeoutMs: 30_000,
      connectionsPerIp: 64,
    };
    assert.deepEqual(loadConfig({}).http, expected);
    assert.deepEqual(
      loadConfig({ CANOPY_HTTP_IDLE_TIMEOUT_MS: '', CANOPY_HTTP_CONNECTIONS_PER_IP: '' }).http,
      expected,
    );
    assert.deepEqual(loadConfig({}).gateway.handshakes, { burst: 30, perSecond: 2, pendingPerIp: 8 });
  });

  it('refuses a headers timeout longer than the request timeout, and limits that allow nothing', () => {
    assert.throws(
      () => loadConfig({ CANOPY_HTTP_HEADERS_TIMEOUT_MS: '5000', CANOPY_HTTP_REQUEST_TIMEOUT_MS: '1000' }),
      /CANOPY_HTTP_HEADERS_TIMEOUT_MS: must not exceed CANOPY_HTTP_REQUEST_TIMEOUT_MS/,
    );
    for (const [name, value] of [
      ['CANOPY_HTTP_CONNECTIONS_PER_IP', '0'],
      ['CANOPY_HTTP_IDLE_TIMEOUT_MS', '0'],
      ['CANOPY_GATEWAY_HANDSHAKE_BURST', '0'],
      ['CANOPY_GATEWAY_HANDSHAKES_PER_SECOND', '0'],
      ['CANOPY_GATEWAY_PENDING_HANDSHAKES_PER_IP', 'many'],
    ] as const)
      assert.throws(() => loadConfig({ [name]: value }), new RegExp(`${name}: `), name);
  });
});
