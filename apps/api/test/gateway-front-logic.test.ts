import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OUTDATED_CLIENT_MESSAGE } from '@canopy/contract/game-client';
import { signGameToken } from '@canopy/contract/game-token';
import { Front, type FrontLimits, frontMessages } from '../src/gateway/front/front.ts';
import { callPacket, gameTextPacket, helloPacket, readTextPacket } from '../src/gateway/front/packets.ts';

const key = Buffer.alloc(32, 3);
const limits: FrontLimits = { peersPerIp: 2, packetsPerPeer: 3, packetBytes: 256, idleMs: 5000, lingerMs: 1000 };

/** A front over a recording transport. */
function recordingFront() {
  const log: string[] = [];
  const sent: [number, Buffer][] = [];
  const front = new Front({
    key,
    publicIp: '203.0.113.9',
    limits,
    transport: {
      send: (peer, data) => sent.push([peer, data]),
      disconnectLater: (peer) => log.push(`later ${peer}`),
      disconnectNow: (peer) => log.push(`now ${peer}`),
    },
  });
  return { front, log, sent };
}

const text = (body: string) => {
  const out = Buffer.alloc(4 + Buffer.byteLength(body) + 1);
  out.writeUInt32LE(2, 0);
  out.write(body, 4);
  return out;
};

describe('gateway front: packets against docs/game-protocol.md', () => {
  it('hello is type 1 and four zero bytes', () => {
    assert.deepEqual([...helloPacket()], [1, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('a call is a type 4 tank: type 1, netId -1, flags 8, extendedLength, then the variant list', () => {
    const packet = callPacket('OnX', { i32: -2 }, 'ab');
    const expected = Buffer.concat([
      Buffer.from([4, 0, 0, 0]),
      Buffer.from([1, 0, 0, 0]), // tankType 1, objType, jump, animation
      Buffer.from([0xff, 0xff, 0xff, 0xff]), // netId -1
      Buffer.alloc(4), // targetNetId
      Buffer.from([8, 0, 0, 0]), // stateFlags: extended data
      Buffer.alloc(36), // delay .. punchY
      Buffer.from([24, 0, 0, 0]), // extendedLength: 1 + (6 + 3) + 6 + (6 + 2)
      Buffer.from([3]), // three arguments
      Buffer.from([0, 2, 3, 0, 0, 0]),
      Buffer.from('OnX'),
      Buffer.from([1, 9, 0xfe, 0xff, 0xff, 0xff]), // i32 -2
      Buffer.from([2, 2, 2, 0, 0, 0]),
      Buffer.from('ab'),
    ]);
    assert.deepEqual(packet, expected);
  });

  it('reads a text packet up to its NUL, first | splits, first key wins; other types and short ones are not text', () => {
    const fields = readTextPacket(Buffer.concat([text('a|1|2\nb|x\na|later\nnobar'), Buffer.from('c|after-nul')]));
    assert.deepEqual(
      [...(fields ?? [])],
      [
        ['a', '1|2'],
        ['b', 'x'],
      ],
    );
    assert.equal(readTextPacket(Buffer.from([4, 0, 0, 0, 1])), undefined);
    assert.equal(readTextPacket(Buffer.from([2, 0])), undefined);
    assert.deepEqual([...(readTextPacket(Buffer.from([2, 0, 0, 0])) ?? [])], []);
  });

  it('a game text is type 3, the lines joined by \\n, then one NUL', () => {
    assert.deepEqual(
      gameTextPacket(['action|log', 'msg|hi']),
      Buffer.concat([Buffer.from([3, 0, 0, 0]), Buffer.from('action|log\nmsg|hi'), Buffer.from([0])]),
    );
  });
});

describe('gateway front: bounds', () => {
  it('drops a third peer of one IP at once, while another IP connects', () => {
    const { front, log, sent } = recordingFront();
    front.connected(1, '198.51.100.1', 0);
    front.connected(2, '198.51.100.1', 0);
    front.connected(3, '198.51.100.1', 0);
    front.connected(4, '198.51.100.2', 0);
    assert.deepEqual(log, ['now 3']);
    assert.deepEqual(
      sent.map(([peer]) => peer),
      [1, 2, 4],
      'only admitted peers get hello',
    );
    front.disconnected(1);
    front.connected(5, '198.51.100.1', 0);
    assert.deepEqual(log, ['now 3'], 'a slot freed by a disconnect is usable again');
  });

  it('drops a peer sending too many or too large packets, and one that stays silent past the idle limit', () => {
    const { front, log } = recordingFront();
    front.connected(1, 'a', 0);
    for (let i = 0; i < 3; i++) front.received(1, Buffer.from([3, 0, 0, 0]), 0);
    assert.deepEqual(log, []);
    front.received(1, Buffer.from([3, 0, 0, 0]), 0);
    assert.deepEqual(log, ['now 1']);
    front.connected(2, 'b', 0);
    front.received(2, Buffer.alloc(257, 2), 0);
    assert.deepEqual(log, ['now 1', 'now 2']);
    front.connected(3, 'c', 1000);
    front.sweep(5999);
    assert.deepEqual(log, ['now 1', 'now 2']);
    front.sweep(6000);
    assert.deepEqual(log, ['now 1', 'now 2', 'now 3']);
    assert.equal(front.peerCount, 0);
  });

  it('an answered peer no longer counts against its IP, and is dropped if it lingers past its answer', () => {
    const { front, log } = recordingFront();
    const token = signGameToken({ port: 17500, server: 'S', growId: 'Ann1' }, { gateway: key, server: key }, 0);
    front.connected(1, 'nat', 0);
    front.connected(2, 'nat', 0);
    front.received(1, text(`protocol|225\nltoken|${token}`), 100);
    front.received(2, text('protocol|225\nltoken|junk'), 100);
    front.connected(3, 'nat', 200);
    front.connected(4, 'nat', 200);
    assert.deepEqual(log, ['later 1', 'later 2'], 'two answered peers leave room for two more behind the same NAT');
    front.connected(5, 'nat', 200);
    assert.deepEqual(log, ['later 1', 'later 2', 'now 5']);
    front.sweep(1099);
    assert.equal(front.peerCount, 4);
    front.sweep(1100);
    assert.deepEqual(log.slice(3), ['now 1', 'now 2'], 'answered peers still there after lingerMs are dropped');
    front.connected(6, 'nat', 1200);
    // Dropping the answered peers must not free their slots a second time: 3 and 4 still hold both.
    assert.deepEqual(log.slice(5), ['now 6']);
  });

  it("sends a player to the host the token names (a Kubernetes node, ADR 0043), else to the gateway's address", () => {
    const { front, sent } = recordingFront();
    const token = signGameToken(
      { host: '198.51.100.4', port: 7042, server: 'S', growId: 'Ann1' },
      { gateway: key, server: key },
      0,
    );
    front.connected(1, 'a', 0);
    front.received(1, text(`protocol|225\nltoken|${token}`), 1);
    // The node and the port Agones gave, not the gateway's 203.0.113.9.
    assert.deepEqual(
      sent[1]?.[1],
      callPacket(
        'OnSendToServer',
        { i32: 7042 },
        { i32: 0 },
        { i32: 0 },
        `198.51.100.4|0|${token}`,
        { i32: 1 },
        'Ann1',
      ),
    );
  });

  it('answers one login per peer and ignores what follows; a tampered token is refused', () => {
    const { front, log, sent } = recordingFront();
    const token = signGameToken({ port: 17500, server: 'S', growId: 'Ann1' }, { gateway: key, server: key }, 0);
    front.connected(1, 'a', 0);
    front.received(1, text(`protocol|225\nltoken|${token}\nplatformID|0,1,1`), 1);
    front.received(1, text(`protocol|225\nltoken|${token}`), 2);
    assert.equal(sent.length, 2, 'hello and one OnSendToServer');
    assert.ok(sent[1]?.[1].includes(Buffer.from(`203.0.113.9|0|${token}`)));
    assert.deepEqual(log, ['later 1']);
    front.connected(2, 'b', 0);
    const [payload, gatewayMac, serverMac] = token.split('.');
    const flipped = `${gatewayMac?.startsWith('A') ? 'B' : 'A'}${gatewayMac?.slice(1)}`;
    front.received(2, text(`protocol|225\nltoken|${payload}.${flipped}.${serverMac}`), 1);
    // Refused as the references refuse a login: the log line, the console line, then logon_fail.
    assert.deepEqual(
      sent.slice(3).map(([, data]) => data),
      [
        gameTextPacket(['action|log', `msg|${frontMessages.badToken}`]),
        callPacket('OnConsoleMessage', frontMessages.badToken),
        gameTextPacket(['action|logon_fail']),
      ],
    );
  });

  it('tells a client older than protocol 225 (or naming none) to update, as the engine does, and sends nobody on', () => {
    const token = signGameToken({ port: 17500, server: 'S', growId: 'Old1' }, { gateway: key, server: key }, 0);
    const refusal = [
      gameTextPacket(['action|log', `msg|${OUTDATED_CLIENT_MESSAGE}`]),
      gameTextPacket(['action|logon_fail']),
    ];
    for (const [peer, login] of [
      [1, `protocol|209\nltoken|${token}`],
      [2, `protocol|224\nltoken|${token}`],
      [3, `ltoken|${token}`],
      [4, `protocol|2x5\nltoken|${token}`],
    ] as const) {
      const { front, log, sent } = recordingFront();
      front.connected(peer, 'a', 0);
      front.received(peer, text(login), 1);
      assert.deepEqual(
        sent.slice(1).map(([, data]) => data),
        refusal,
        login,
      );
      assert.deepEqual(log, [`later ${peer}`]);
    }
    const { front, sent } = recordingFront();
    front.connected(9, 'a', 0);
    front.received(9, text(`protocol|226\nltoken|${token}`), 1);
    assert.ok(sent[1]?.[1].includes(Buffer.from('OnSendToServer')), 'a newer protocol is sent on');
  });
});
