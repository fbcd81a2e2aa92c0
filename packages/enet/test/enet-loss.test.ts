// Loss and garbage on the wire: a relay between our client and the native host drops or injects datagrams.

import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { EnetClient } from '../src/client.ts';
import { crc32 } from '../src/crc32.ts';
import { startNativeHost, until } from './native-host.ts';
import { startRelay } from './udp-relay.ts';

const server = await startNativeHost();
after(() => server.stop());

async function connectThroughRelay() {
  const relay = await startRelay(server.port);
  const client = new EnetClient({ retransmitMs: 100, integrityPort: server.port });
  const received: Buffer[] = [];
  client.on('packet', (d: Buffer) => received.push(d));
  const before = server.events.filter((e) => e.type === 'connect').length;
  await client.connect('127.0.0.1', relay.port);
  const connects = await until(() => {
    const all = server.events.filter((e) => e.type === 'connect');
    return all.length > before ? all : undefined;
  });
  const netId = connects[connects.length - 1]?.netId ?? -1;
  return { relay, client, received, netId };
}

test('a dropped client datagram is retransmitted and arrives once', async () => {
  const { relay, client } = await connectThroughRelay();
  relay.dropNext('toServer');
  const payload = Buffer.from('sent through a lossy relay');
  client.send(payload);
  await until(
    () => server.events.find((e) => e.type === 'raw' && e.data?.equals(payload)),
    5000,
    'retransmitted packet',
  );
  assert.ok(client.stats.retransmits >= 1, 'retransmitted');
  assert.ok(relay.seen.some((s) => s.direction === 'toServer' && s.dropped));
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(server.events.filter((e) => e.type === 'raw' && e.data?.equals(payload)).length, 1);
  await client.disconnect();
  await relay.close();
});

test('a dropped server datagram holds later packets back until its retransmission fills the gap', async () => {
  const { relay, client, received, netId } = await connectThroughRelay();
  relay.dropNext('toClient');
  const seenBefore = relay.seen.length;
  server.host.send(netId, Buffer.from('first'), 0);
  await until(() => (relay.seen.slice(seenBefore).some((s) => s.dropped) ? true : undefined), 5000, 'the drop');
  server.host.send(netId, Buffer.from('second'), 0);
  await until(() => (received.length >= 2 ? true : undefined), 10_000, 'both packets');
  assert.deepEqual(
    received.map((b) => b.toString()),
    ['first', 'second'],
  );
  await client.disconnect();
  await relay.close();
});

test('malformed server datagrams are ignored and the connection keeps working', async () => {
  const { relay, client, received, netId } = await connectThroughRelay();
  const withCrc = (body: Buffer) => {
    // Standard header, peerID 0xFFF (checksum seed 0) with the sent-time flag: a datagram that passes the crc32.
    const d = Buffer.concat([Buffer.from([0x8f, 0xff, 0x00, 0x01, 0, 0, 0, 0]), body]);
    d.writeUInt32BE(crc32(d), 4);
    return d;
  };
  const garbage = [
    Buffer.alloc(0),
    Buffer.from([0x80]),
    Buffer.from('not enet at all, just text'),
    Buffer.from([0x00, 0x00, 0xde, 0xad, 0xbe, 0xef, 0x06, 0x00, 0x00, 0x01]),
    Buffer.from([0xc0, 0x00, 0x00, 0x01, 0x12, 0x34, 0x56, 0x78, 0xff, 0xff, 0xff, 0xff, 0x01]),
    withCrc(Buffer.from([0x0d, 0x00, 0x00, 0x01])),
    withCrc(Buffer.from([0x86, 0x00, 0x00, 0x01, 0xff, 0xff, 0x41])),
    withCrc(Buffer.from([0x88, 0x00, 0x00, 0x01, 0, 1, 0, 4, 0xff, 0xff, 0xff, 0xff])),
    withCrc(Buffer.from([0x86])),
  ];
  for (const g of garbage) relay.injectToClient(g);
  await until(() => (client.stats.dropped >= garbage.length - 1 ? true : undefined), 5000, 'garbage counted');
  server.host.send(netId, Buffer.from('still here'), 0);
  await until(
    () => (received.some((b) => b.toString() === 'still here') ? true : undefined),
    5000,
    'packet after garbage',
  );
  assert.equal(client.state, 'connected');
  assert.equal(received.length, 1);
  await client.disconnect();
  await relay.close();
});

test('a server that goes silent times the client out; a connect to nobody fails', async () => {
  const relay = await startRelay(server.port);
  const client = new EnetClient({ retransmitMs: 50, timeoutMs: 600, integrityPort: server.port });
  await client.connect('127.0.0.1', relay.port);
  const reason = new Promise((resolve) => client.once('disconnect', resolve));
  await relay.close();
  assert.equal(await reason, 'timeout');
  assert.equal(client.state, 'closed');

  const lonely = new EnetClient({ retransmitMs: 50, timeoutMs: 400 });
  await assert.rejects(lonely.connect('127.0.0.1', relay.port), /failed: timeout/);
});
