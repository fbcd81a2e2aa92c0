// The host's per-peer queues: what goes into datagrams, in what order, and that nothing goes twice.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Peer } from '../src/peer.ts';
import { encodePing, parseCommands } from '../src/protocol.ts';
import { createHostSocket } from '../src/udp-socket.ts';

const newPeer = () =>
  new Peer({ id: 0, address: '127.0.0.1', port: 1, incomingSessionId: 0, outgoingSessionId: 0 }, {});

/** Packs the peer's queues; the commands of each datagram. */
function pack(p: Peer, room = 1388, dropUnreliable = false) {
  const datagrams: Buffer[] = [];
  p.pack(
    room,
    (bytes) => Buffer.alloc(bytes),
    (d) => datagrams.push(d),
    dropUnreliable,
  );
  return datagrams.map((d) => parseCommands(d) ?? assert.fail('a datagram that does not parse'));
}

test('unreliable packets go once: a later datagram does not carry them again', () => {
  const p = newPeer();
  p.queueUnreliable(0, Buffer.from('move 1'), 1);
  p.queueUnreliable(0, Buffer.from('move 2'), 2);
  assert.deepEqual(
    pack(p)
      .flat()
      .map((c) => c.kind),
    ['unreliable', 'unreliable'],
  );
  p.outgoing.push(encodePing(1));
  assert.deepEqual(
    pack(p)
      .flat()
      .map((c) => c.kind),
    ['ping'],
  );
});

test('left out under congestion, unreliable packets are dropped, not kept for later', () => {
  const p = newPeer();
  p.queueUnreliable(0, Buffer.from('move'), 1);
  p.outgoing.push(encodePing(1));
  assert.deepEqual(
    pack(p, 1388, true)
      .flat()
      .map((c) => c.kind),
    ['ping'],
  );
  assert.deepEqual(pack(p), []);
});

test('unreliable packets fill datagrams up to the room, in order', () => {
  const p = newPeer();
  for (let i = 0; i < 10; i++) p.queueUnreliable(0, Buffer.alloc(92, i), i + 1);
  const datagrams = pack(p, 300); // three 100-byte commands per datagram
  assert.deepEqual(
    datagrams.map((d) => d.length),
    [3, 3, 3, 1],
  );
  const sequences = datagrams.flat().map((c) => (c.kind === 'unreliable' ? c.unreliableSequence : -1));
  assert.deepEqual(sequences, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
});

test('spilled before a reliable command, queued unreliable ones keep their place', () => {
  const p = newPeer();
  p.queueUnreliable(0, Buffer.from('last state'), 1);
  p.spillUnreliable();
  p.outgoing.push(encodePing(1));
  const kinds = pack(p)
    .flat()
    .map((c) => c.kind);
  assert.deepEqual(kinds, ['unreliable', 'ping']);
});

test('a host socket binds to a name as well as to an address', async () => {
  const socket = createHostSocket();
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, 'localhost', resolve);
  });
  assert.equal(socket.address().address, '127.0.0.1');
  await new Promise<void>((resolve) => socket.close(resolve));
});
