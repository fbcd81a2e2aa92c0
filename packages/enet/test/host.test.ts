// Our ENet host against two clients: growtopia.js's native one (rusty_enet, an independent implementation; it can
// only speak the standard header) and our own (the game client's new-packet header). Small and fragmented packets
// both ways, compression on the way in, ordering, disconnects from either side, and what a stranger can do.

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import { after, describe, test } from 'node:test';
import { Host } from 'growtopia.js';
import { EnetClient } from '../src/client.ts';
import { EnetHost } from '../src/host.ts';
import type { HostOptions } from '../src/host-options.ts';
import { createHostSocket } from '../src/udp-socket.ts';
import { freeUdpPort, until } from './native-host.ts';

interface Heard {
  connects: number[];
  packets: { peer: number; data: Buffer; channel: number }[];
  disconnects: number[];
}

async function startHost(options: Partial<Omit<HostOptions, 'socket'>> = {}) {
  const socket: Socket = createHostSocket();
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const heard: Heard = { connects: [], packets: [], disconnects: [] };
  const host = new EnetHost(
    { socket, peerLimit: 8, ...options },
    {
      connect: (peer) => heard.connects.push(peer),
      receive: (peer, data, channel) => heard.packets.push({ peer, data, channel }),
      disconnect: (peer) => heard.disconnects.push(peer),
    },
  );
  return { host, heard };
}

describe('with the native client (standard header)', async () => {
  const { host, heard } = await startHost({ header: 'standard' });
  const port = await freeUdpPort();
  const native = new Host('127.0.0.1', port, 4, 2, false, false, null, null, true, true);
  const events: { type: string; netId: number; data?: Buffer }[] = [];
  native.setEmitter((type: string, netId: number, _channel?: number, data?: Buffer) =>
    events.push({ type, netId, data: data ? Buffer.from(data) : undefined }),
  );
  const timer = setInterval(() => native.service(), 1);
  after(async () => {
    clearInterval(timer);
    await host.close();
  });

  test('connects, carries compressed and fragmented packets both ways in order, and disconnects', async () => {
    native.connect('127.0.0.1', host.port);
    const connected = await until(() => events.find((e) => e.type === 'connect'), 5000, 'native connect');
    const peer = await until(() => heard.connects[0], 5000, 'host connect');
    assert.equal(host.peerCount(), 1);

    // The native client range-codes its datagrams: text compresses, so this exercises our decoder.
    const text = Buffer.from('action|input\ntext|hello '.repeat(40));
    const big = randomBytes(30_000);
    native.send(connected.netId, text, 0);
    native.send(connected.netId, big, 0);
    await until(() => (heard.packets.length >= 2 ? true : undefined), 5000, 'two packets');
    assert.deepEqual(heard.packets[0]?.data, text);
    assert.deepEqual(heard.packets[1]?.data, big);
    assert.equal(heard.packets[0]?.peer, peer);

    const many = Array.from({ length: 300 }, (_, i) => Buffer.from(`message ${i}`));
    for (const m of many) host.send(peer, m);
    const bigBack = randomBytes(50_000);
    host.send(peer, bigBack);
    await until(() => (events.filter((e) => e.type === 'raw').length >= 301 ? true : undefined), 10_000, 'all back');
    const raws = events.filter((e) => e.type === 'raw').map((e) => e.data);
    assert.deepEqual(raws.slice(0, 300), many, 'in order, none lost');
    assert.deepEqual(raws[300], bigBack);

    // Unreliable packets (movement): read by an independent ENet, in order, after the reliable one before them.
    host.send(peer, Buffer.from('reliable first'));
    const moves = Array.from({ length: 50 }, (_, i) => Buffer.from(`move ${i}`));
    for (const m of moves) host.sendUnreliable(peer, m);
    await until(() => (events.filter((e) => e.type === 'raw').length >= 352 ? true : undefined), 5000, 'moves');
    const after = events.filter((e) => e.type === 'raw').map((e) => e.data?.toString());
    assert.deepEqual(after.slice(301), ['reliable first', ...moves.map(String)]);

    host.disconnect(peer);
    await until(() => events.find((e) => e.type === 'disconnect'), 5000, 'native hears the disconnect');
    await until(() => heard.disconnects[0], 5000, 'host disconnect event');
    assert.equal(host.peerCount(), 0);
  });
});

describe('with our client (new-packet header)', async () => {
  const { host, heard } = await startHost({ header: 'new', timeoutMs: 1500 });
  after(() => host.close());

  test('connects, exchanges packets, and hears the client leave', async () => {
    const client = new EnetClient();
    const got: Buffer[] = [];
    client.on('packet', (d: Buffer) => got.push(d));
    await client.connect('127.0.0.1', host.port);
    const peer = await until(() => heard.connects.at(-1), 5000, 'connect');
    client.send(Buffer.from('hello'));
    client.send(Buffer.from('x'.repeat(5000)));
    await until(() => (heard.packets.length >= 2 ? true : undefined), 5000, 'packets');
    assert.equal(heard.packets[1]?.data.toString(), 'x'.repeat(5000));
    host.send(peer, Buffer.from('welcome'));
    await until(() => got[0], 5000, 'welcome');
    assert.equal(got[0]?.toString(), 'welcome');
    await client.disconnect();
    await until(() => (heard.disconnects.includes(peer) ? true : undefined), 5000, 'disconnect');
  });

  test('many unreliable packets are packed into several datagrams and arrive in order', async () => {
    const client = new EnetClient();
    const got: string[] = [];
    client.on('packet', (d: Buffer) => got.push(d.toString()));
    const connects = heard.connects.length;
    await client.connect('127.0.0.1', host.port);
    const peer = await until(() => heard.connects[connects], 5000, 'connect');
    const sentBefore = host.stats.datagramsOut;
    const moves = Array.from({ length: 100 }, (_, i) => `${String(i).padStart(3, '0')} ${'m'.repeat(200)}`);
    for (const m of moves) host.sendUnreliable(peer, Buffer.from(m));
    await until(() => (got.length >= 100 ? true : undefined), 5000, 'moves');
    assert.deepEqual(got, moves);
    const datagrams = host.stats.datagramsOut - sentBefore;
    // A state sent just before a reliable packet arrives before it (after it, a receiver drops it as stale).
    host.sendUnreliable(peer, Buffer.from('last state'));
    host.send(peer, Buffer.from('chat'));
    await until(() => (got.length >= 102 ? true : undefined), 5000, 'state and chat');
    assert.deepEqual(got.slice(100), ['last state', 'chat']);
    assert.ok(datagrams >= 16 && datagrams <= 20, `~20.8 KB in 1400-byte datagrams, not one each: ${datagrams}`);
    await client.disconnect();
  });

  test('a client that goes silent times out, and its slot is free again', async () => {
    const client = new EnetClient();
    const left = heard.disconnects.length;
    await client.connect('127.0.0.1', host.port);
    await until(() => (host.peerCount() === 1 ? true : undefined), 5000, 'connect');
    client.close(); // no DISCONNECT: the host only notices the silence
    await until(() => (heard.disconnects.length > left ? true : undefined), 8000, 'time-out');
    assert.equal(host.peerCount(), 0);
  });

  test('datagrams naming another port, peer or session, or failing the checksum, are dropped', async () => {
    const before = host.stats.dropped;
    const s = createSocket('udp4');
    await new Promise<void>((r) => s.bind(0, '127.0.0.1', r));
    const send = (b: Buffer) => new Promise<void>((r) => s.send(b, host.port, '127.0.0.1', () => r()));
    await send(Buffer.alloc(3));
    await send(randomBytes(200));
    await send(Buffer.alloc(5000));
    // A well-formed header for peer 0 from an address that is not peer 0's.
    const forged = Buffer.alloc(30);
    forged.writeUInt16BE(0x1234, 0);
    forged.writeUInt16BE(0x1234 ^ host.port, 2);
    forged.writeUInt16BE(0x8000, 6);
    await send(forged);
    await until(() => (host.stats.dropped - before >= 4 ? true : undefined), 2000, 'drops');
    s.close();
    assert.equal(host.peerCount(), 0);
  });
});

describe('limits', async () => {
  test('the peer limit bounds how many CONNECTs get a slot; a freed slot takes a new one', async () => {
    const { host, heard } = await startHost({ header: 'new', peerLimit: 3 });
    try {
      const clients = Array.from({ length: 5 }, () => new EnetClient({ timeoutMs: 1500 }));
      const results = await Promise.allSettled(clients.map((c) => c.connect('127.0.0.1', host.port)));
      assert.equal(results.filter((r) => r.status === 'fulfilled').length, 3);
      await until(() => (heard.connects.length === 3 ? true : undefined), 2000, 'three connects');
      const connected = clients.filter((c) => c.state === 'connected');
      await connected[0]?.disconnect();
      const late = new EnetClient();
      await late.connect('127.0.0.1', host.port);
      assert.equal(host.peerCount(), 3);
      for (const c of [...clients, late]) c.close();
    } finally {
      await host.close();
    }
  });

  test('one address other than loopback holds at most perAddressLimit peers', async (t) => {
    const { networkInterfaces } = await import('node:os');
    const lan = Object.values(networkInterfaces())
      .flat()
      .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
    if (!lan) return t.skip('no non-loopback IPv4 address on this machine');
    const socket = createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, lan, resolve));
    const heard: number[] = [];
    const host = new EnetHost(
      { socket, peerLimit: 8, perAddressLimit: 2 },
      { connect: (p) => heard.push(p), receive: () => {}, disconnect: () => {} },
    );
    try {
      const clients = Array.from({ length: 4 }, () => new EnetClient({ timeoutMs: 1500 }));
      const results = await Promise.allSettled(clients.map((c) => c.connect(lan, host.port)));
      assert.equal(results.filter((r) => r.status === 'fulfilled').length, 2);
      for (const c of clients) c.close();
    } finally {
      await host.close();
    }
  });

  test('a peer that stops acknowledging is dropped once too much waits for it', async () => {
    const { host, heard } = await startHost({ header: 'new', maxQueuedBytes: 20_000 });
    try {
      const client = new EnetClient();
      await client.connect('127.0.0.1', host.port);
      const peer = await until(() => heard.connects[0], 5000, 'connect');
      client.close();
      for (let i = 0; i < 40; i++) host.send(peer, randomBytes(1000));
      await until(() => (heard.disconnects.includes(peer) ? true : undefined), 2000, 'dropped');
    } finally {
      await host.close();
    }
  });
});

test("a client's disconnectNow frees its slot at once", async () => {
  const { host, heard } = await startHost({ header: 'new' });
  try {
    const client = new EnetClient();
    await client.connect('127.0.0.1', host.port);
    await until(() => heard.connects[0], 5000, 'connect');
    client.disconnectNow();
    await until(() => (heard.disconnects.length === 1 ? true : undefined), 1000, 'the DISCONNECT arrived');
    assert.equal(host.peerCount(), 0);
  } finally {
    await host.close();
  }
});
