import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect as tcpConnect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { connect } from 'node:tls';
import { threadId, Worker } from 'node:worker_threads';
import { HandshakeAdmission, MAX_PENDING_HANDSHAKES } from '../src/gateway/tls/handshake-limits.ts';
import {
  GATEWAY_ENV,
  gatewayCheckToken,
  gatewayLogin,
  gatewayPorts,
  gatewayRequest,
  generatedCert,
} from './support/gateway.ts';
import { startApi, type TestApi } from './support/harness.ts';

// The gateway's HTTPS server in its own thread, with TLS admission per address (ADR 0032). Loopback has a whole /8:
// each test takes its own source address, so their buckets do not meet.

const BURST = 8;
const PENDING = 2;

/** One TLS handshake from `from`: true once secure, false when the server closed it first. */
function handshake(api: TestApi, from: string): Promise<boolean> {
  return new Promise((resolve) => {
    // node:tls takes no source address: the TCP socket is made with one and handed to it.
    const tcp = tcpConnect({ host: '127.0.0.1', port: gatewayPorts(api).tlsPort, localAddress: from });
    const socket = connect({ socket: tcp, ca: generatedCert(api), servername: 'localhost' });
    socket.once('secureConnect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('close', () => resolve(false));
  });
}

describe('gateway TLS thread', () => {
  let api: TestApi;
  before(async () => {
    api = await startApi('sqlite', {
      ...GATEWAY_ENV,
      CANOPY_GATEWAY_HANDSHAKE_BURST: String(BURST),
      // Slow enough that no token comes back during the test.
      CANOPY_GATEWAY_HANDSHAKES_PER_SECOND: '0.001',
      CANOPY_GATEWAY_PENDING_HANDSHAKES_PER_IP: String(PENDING),
    });
  });
  after(() => api.close());

  it("completes TLS handshakes while the api's event loop is blocked", { timeout: 30_000 }, async () => {
    const https = api.ctx.gateway?.https;
    assert.ok(https?.threadId, 'the HTTPS server runs in a thread');
    assert.notEqual(https.threadId, threadId);
    // 0: waiting, 1: go, 2: done (secure), 3: failed.
    const state = new Int32Array(new SharedArrayBuffer(4));
    const client = new Worker(
      `const { workerData } = require('node:worker_threads');
       const net = require('node:net');
       const tls = require('node:tls');
       const state = workerData.state;
       Atomics.wait(state, 0, 0);
       const tcp = net.connect({ host: '127.0.0.1', port: workerData.port, localAddress: '127.0.0.5' });
       const s = tls.connect({ socket: tcp, ca: workerData.ca, servername: 'localhost' });
       const end = (v) => { Atomics.store(state, 0, v); Atomics.notify(state, 0); s.destroy(); };
       s.once('secureConnect', () => end(2));
       s.once('error', () => end(3));`,
      { eval: true, workerData: { state, port: gatewayPorts(api).tlsPort, ca: generatedCert(api) } },
    );
    await once(client, 'online');
    try {
      // From here until the handshake is over this thread runs nothing: were the TLS server on it, the handshake
      // could not complete and the wait would run out.
      Atomics.store(state, 0, 1);
      Atomics.notify(state, 0);
      Atomics.wait(state, 0, 1, 20_000);
      assert.equal(Atomics.load(state, 0), 2, 'the handshake completed while the api was blocked');
    } finally {
      await client.terminate();
    }
  });

  it("answers validate and checktoken from the api's handlers through the thread", async () => {
    const invalid = await gatewayLogin(api, { server: 'no such!', growId: 'Sprout', password: 'pw' });
    assert.equal(invalid.status, 200);
    assert.equal(invalid.code, 'invalid');
    assert.match(invalid.html ?? '', /<form method="post"/);
    const saved = await gatewayCheckToken(api, 'not-a-token');
    assert.equal(saved.code, 'token_invalid');
  });

  it('refuses new TLS connections from an address past its bucket, before the handshake', async () => {
    for (let i = 0; i < BURST; i++) assert.equal(await handshake(api, '127.0.0.2'), true, `handshake ${i + 1}`);
    assert.equal(await handshake(api, '127.0.0.2'), false, 'the next one is closed before it is secure');
    const other = await gatewayRequest(api, 'POST', '/growtopia/server_data.php', { body: '' });
    assert.equal(other.status, 200, 'another address still gets in');
  });

  it('refuses a connection from an address with too many handshakes under way', async () => {
    const { tlsPort } = gatewayPorts(api);
    // Connected and silent: their handshakes wait for a ClientHello.
    const stalled = Array.from({ length: PENDING }, () => {
      const socket = tcpConnect({ host: '127.0.0.1', port: tlsPort, localAddress: '127.0.0.3' });
      socket.on('error', () => {});
      return socket;
    });
    try {
      await Promise.all(stalled.map((s) => once(s, 'connect')));
      assert.equal(await handshake(api, '127.0.0.3'), false, 'closed before its handshake');
      assert.equal(await handshake(api, '127.0.0.4'), true, 'another address still gets in');
    } finally {
      for (const s of stalled) s.destroy();
    }
  });

  it('is started again on the same port when its thread dies', { timeout: 30_000 }, async () => {
    const https = api.ctx.gateway?.https;
    assert.ok(https);
    const before = https.threadId;
    await https.terminateThread();
    // Restarted after its backoff (1 s): wait for the new thread to listen.
    while (https.threadId === undefined) await new Promise((r) => setTimeout(r, 50));
    assert.notEqual(https.threadId, before);
    const res = await gatewayRequest(api, 'POST', '/growtopia/server_data.php', { body: '' });
    assert.equal(res.status, 200);
  });
});

describe('gateway TLS admission (bookkeeping)', () => {
  const limits = { burst: 3, perSecond: 1, pendingPerIp: 2 };

  it('takes a token per attempt, refused ones too, and refills at its rate', () => {
    const clock = { now: 0 };
    const admission = new HandshakeAdmission(limits, () => clock.now);
    for (let i = 0; i < 2; i++) {
      assert.equal(admission.admit('a'), null);
      admission.settle('a');
    }
    assert.equal(admission.admit('a'), null);
    admission.settle('a');
    assert.equal(admission.admit('a'), 'rate');
    assert.equal(admission.admit('b'), null, 'another address has its own bucket');
    clock.now += 999;
    assert.equal(admission.admit('a'), 'rate', 'not yet a whole token back');
    clock.now += 1001;
    assert.equal(admission.admit('a'), null, 'refilled');
  });

  it('caps handshakes under way per address, and frees the slot when one settles', () => {
    const admission = new HandshakeAdmission({ ...limits, burst: 100 }, () => 0);
    assert.equal(admission.admit('a'), null);
    assert.equal(admission.admit('a'), null);
    assert.equal(admission.admit('a'), 'pending');
    admission.settle('a');
    assert.equal(admission.admit('a'), null);
  });

  it(`caps handshakes under way across addresses at ${MAX_PENDING_HANDSHAKES}`, () => {
    const admission = new HandshakeAdmission({ burst: 100, perSecond: 1, pendingPerIp: 100 }, () => 0);
    for (let i = 0; i < MAX_PENDING_HANDSHAKES; i++) assert.equal(admission.admit(`10.0.${i >> 8}.${i & 255}`), null);
    assert.equal(admission.admit('10.9.9.9'), 'busy');
    admission.settle('10.0.0.0');
    assert.equal(admission.admit('10.9.9.9'), null);
  });

  it('forgets only the buckets that have refilled', () => {
    const clock = { now: 0 };
    const admission = new HandshakeAdmission({ ...limits, burst: 1 }, () => clock.now);
    assert.equal(admission.admit('a'), null);
    admission.settle('a');
    admission.sweep();
    assert.equal(admission.admit('a'), 'rate', 'an empty bucket is kept');
  });
});
