// ENet datagram framing against layouts written out by hand: the new-packet header we send, the standard header
// we read, the crc32 rule (connectID in the checksum field while computing) and the compressed flag.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { crc32, tableCrc32 } from '../src/crc32.ts';
import { decodeDatagram, encodeDatagram, readHeader } from '../src/datagram.ts';
import { parseCommands } from '../src/protocol.ts';

const hex = (s: string) => Buffer.from(s.replace(/\s+/g, ''), 'hex');

test('crc32 is the standard reflected CRC-32', () => {
  assert.equal(crc32(Buffer.from('123456789')), 0xcbf43926);
  assert.equal(crc32(Buffer.alloc(0)), 0);
});

test('the native crc32 and the table one agree, chained or not', () => {
  const data = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7919) & 0xff));
  for (const n of [0, 1, 5, 64, 1400, 3000]) {
    const part = data.subarray(0, n);
    assert.equal(crc32(part), tableCrc32(part));
    assert.equal(crc32(data.subarray(n), crc32(part)), tableCrc32(data.subarray(n), tableCrc32(part)));
  }
  assert.equal(crc32(data.subarray(10), crc32(data.subarray(0, 10))), crc32(data));
});

test('new-packet header: integrity words, peer and session, sentTime, then the big-endian crc32', () => {
  const ping = hex('85 ff 0002');
  const d = encodeDatagram(
    {
      peerId: 3,
      sessionId: 2,
      sentTime: 0x1234,
      serverPort: 17091,
      connectId: hex('a1b2c3d4'),
      compress: false,
      random: () => 0xffff,
    },
    ping,
  );
  // r = rand() % (port + 1): 0x7FFF (rand() range) % 17092 = 15675 (0x3D3B), r ^ 17091 (0x42C3) = 0x7FF8,
  // (0xFFFF & 0x61D2) | 0x920D = 0xF3DF, peerID 3 | session 2 << 12 | sent-time flag = 0xA003, sentTime 0x1234.
  assert.deepEqual(d.subarray(0, 10), hex('3d3b 7ff8 f3df a003 1234'));
  const expected = crc32(Buffer.concat([hex('3d3b 7ff8 f3df a003 1234 a1b2c3d4'), ping]));
  assert.equal(d.readUInt32BE(10), expected);
  assert.deepEqual(d.subarray(14), ping);
});

test('new-packet header: i0 stays within 0..port inclusive, and i0 ^ i1 names the port', () => {
  const seen = new Set<number>();
  for (let v = 0; v < 0x8000; v += 97) {
    const d = encodeDatagram(
      {
        peerId: 1,
        sessionId: 0,
        sentTime: 0,
        serverPort: 300,
        connectId: hex('00000001'),
        compress: false,
        random: () => v,
      },
      hex('85 ff 0001'),
    );
    const i0 = d.readUInt16BE(0);
    assert.ok(i0 <= 300, `i0 ${i0}`);
    assert.equal(i0 ^ d.readUInt16BE(2), 300);
    seen.add(i0);
  }
  assert.ok(seen.has(300) || seen.size > 250, 'the whole range is used');
});

test('before the server gives us a peer id (0xFFF) the checksum field holds zero while computing', () => {
  const d = encodeDatagram(
    {
      peerId: 0xfff,
      sessionId: 3,
      sentTime: 1,
      serverPort: 1,
      connectId: hex('a1b2c3d4'),
      compress: false,
      random: () => 0,
    },
    hex('85 ff 0001'),
  );
  assert.deepEqual(d.subarray(0, 10), hex('0000 0001 920d 8fff 0001'));
  assert.equal(d.readUInt32BE(10), crc32(hex('0000 0001 920d 8fff 0001 00000000 85ff0001')));
});

test('compresses only when it helps, and flags it', () => {
  const head = { peerId: 0, sessionId: 0, sentTime: 0, serverPort: 1, connectId: hex('00000001'), random: () => 0 };
  const text = Buffer.concat([hex('86 00 0001 0100'), Buffer.alloc(256, 0x61)]);
  const small = encodeDatagram({ ...head, compress: true }, hex('85 ff 0001'));
  assert.equal(small.readUInt16BE(6) & 0x4000, 0);
  const big = encodeDatagram({ ...head, compress: true }, text);
  assert.equal(big.readUInt16BE(6) & 0x4000, 0x4000);
  assert.ok(big.length < 14 + text.length);
});

test('reads a standard server header, checks the crc32 with our connectID, refuses a wrong one', () => {
  const connectId = hex('0badf00d');
  const body = hex('86 00 0001 0003 616263');
  // peerID 0, session 1, sent-time flag: 0x9000; sentTime 0x0102.
  const withSeed = Buffer.concat([hex('9000 0102'), connectId, body]);
  const datagram = Buffer.concat([hex('9000 0102'), Buffer.alloc(4), body]);
  datagram.writeUInt32BE(crc32(withSeed), 4);
  const d = decodeDatagram(datagram, connectId);
  assert.deepEqual(
    { peerId: d?.peerId, sessionId: d?.sessionId, sentTime: d?.sentTime, compressed: d?.compressed },
    { peerId: 0, sessionId: 1, sentTime: 0x0102, compressed: false },
  );
  assert.deepEqual(d?.body, body);
  assert.equal(decodeDatagram(datagram, hex('0badf00e')), null);
  const commands = parseCommands(body);
  assert.equal(commands?.[0]?.kind, 'reliable');
  assert.equal(commands?.[0]?.kind === 'reliable' ? commands[0].payload.toString() : '', 'abc');
});

test('crc32 continues across pieces', () => {
  const whole = Buffer.from('the quick brown fox');
  assert.equal(crc32(whole.subarray(7), crc32(whole.subarray(0, 7))), crc32(whole));
});

test('standard header (what the host sends): peer, session and sentTime words, then the crc32', () => {
  const ping = hex('85 ff 0002');
  const d = encodeDatagram(
    { kind: 'standard', peerId: 5, sessionId: 1, sentTime: 0xbeef, connectId: hex('01020304'), compress: false },
    [ping.subarray(0, 2), ping.subarray(2)],
  );
  // peerID 5 | session 1 << 12 | sent-time flag = 0x9005.
  assert.deepEqual(d.subarray(0, 4), hex('9005 beef'));
  assert.equal(d.readUInt32BE(4), crc32(Buffer.concat([hex('9005 beef 01020304'), ping])));
  assert.deepEqual(d.subarray(8), ping);
  assert.deepEqual(decodeDatagram(d, hex('01020304'))?.body, ping);
  assert.equal(decodeDatagram(d, hex('01020305')), null, 'another connectID fails the checksum');
});

test('the host reads the new-packet header and refuses integrity words naming another port', () => {
  const d = encodeDatagram(
    { peerId: 2, sessionId: 0, sentTime: 7, serverPort: 17092, connectId: hex('0a0b0c0d'), compress: true },
    Buffer.from('ab'.repeat(200)),
  );
  const read = decodeDatagram(d, hex('0a0b0c0d'), 'new');
  assert.equal(read?.peerId, 2);
  assert.equal(read?.sentTime, 7);
  assert.equal(read?.compressed, true);
  assert.equal(read?.body.toString(), 'ab'.repeat(200));
  assert.equal(readHeader(d, 'new', 17092)?.peerId, 2);
  assert.equal(readHeader(d, 'new', 17093), null);
});
