import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  killAll,
  type RunningEngine,
  removeDataDir,
  startEngine,
  stopEngine,
  tempDataDir,
} from './support/engine-process.ts';
import { buildPlayer } from './support/factories.ts';
import { GameClient, tankBytes, testToken, textBytes } from './support/game-client.ts';

/** mulberry32: the same packets on every run. */
function seeded(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Malformed, truncated and nonsense packets of every message type. */
function fuzzPackets(seed: number, count: number): Buffer[] {
  const random = seeded(seed);
  const int = (n: number) => Math.floor(random() * n);
  const bytes = (n: number) => Buffer.from(Array.from({ length: n }, () => int(256)));
  const valid = [
    textBytes(2, [`UUIDToken|${'x'.repeat(int(600))}`, 'lmode|1']),
    textBytes(3, ['action|join_request', `name|${bytes(int(30)).toString('latin1')}`]),
    textBytes(3, ['action|input', `|text|${bytes(int(300)).toString('utf8')}`]),
    textBytes(3, ['action|refresh_item_data']),
    textBytes(3, ['action|enter_game']),
    tankBytes({ tankType: 3, value: int(70000) - 1000, punchX: int(300) - 100, punchY: int(300) - 100 }),
    tankBytes({ tankType: 0, x: random() * 1e6 - 5e5, y: random() * 1e6 }),
    tankBytes({ tankType: int(256), netId: int(1000) }),
  ];
  const out: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const base = valid[int(valid.length)] as Buffer;
    switch (int(6)) {
      case 0: // truncated anywhere, down to nothing
        out.push(base.subarray(0, int(base.length)));
        break;
      case 1: {
        // a tank whose extendedLength lies
        const t = Buffer.concat([tankBytes({ tankType: int(30) }), bytes(int(40))]);
        t.writeUInt32LE(int(2) ? 0xffffffff : int(200), 56);
        t.writeUInt32LE(8, 16);
        out.push(t);
        break;
      }
      case 2: // random bytes behind a known type
        out.push(Buffer.concat([Buffer.from([1 + int(4), 0, 0, 0]), bytes(int(200))]));
        break;
      case 3: // bit flips in a valid packet
        out.push(Buffer.from(base.map((b) => (random() < 0.05 ? b ^ (1 << int(8)) : b))));
        break;
      case 4: // oversized
        out.push(Buffer.concat([base, bytes(9000)]));
        break;
      default:
        out.push(bytes(int(80)));
    }
  }
  return out;
}

describe('malformed game packets', () => {
  let engine: RunningEngine;
  const clients: GameClient[] = [];
  before(async () => {
    const dataDir = tempDataDir();
    engine = await startEngine({
      dataDir,
      args: ['--data-dir', dataDir, '--game-port', '0', '--control-port', '0', '--standard-enet-header'],
    });
    for (const name of ['Fuzzer', 'Flooder', 'Checker'])
      assert.equal(
        (await engine.request('PUT', `/players/${name}`, buildPlayer({ inventory: [[2, 50]] }))).status,
        201,
      );
  });
  after(async () => {
    for (const c of clients) c.close();
    await stopEngine(engine);
    killAll();
    removeDataDir(engine.dataDir);
  });
  const connect = async () => {
    const c = await GameClient.connect(engine.gamePort);
    clients.push(c);
    return c;
  };

  it('ignores 600 malformed packets (fixed seed) before and after login without a crash or an error', async () => {
    // Never logs in with a good token; a fuzzed login refused gets it disconnected, so it comes back.
    let stranger = await connect();
    const player = await connect();
    await player.login(testToken('fuzzer'));
    await player.join('FUZZ');
    const packets = fuzzPackets(0x5eed, 600);
    // Under the per-peer rate limit (30 a second), so every packet reaches the handlers.
    for (let i = 0; i < packets.length; i += 50) {
      if (stranger.disconnected) stranger = await connect();
      for (const p of packets.slice(i, i + 25)) stranger.send(p);
      for (const p of packets.slice(i + 25, i + 50)) player.send(p);
      await new Promise((r) => setTimeout(r, 1050));
    }
    // Still answering: a new player gets in and chats in the fuzzed world.
    const checker = await connect();
    assert.equal(
      (await checker.login(testToken('checker'))).call?.name,
      'OnSuperMainStartAcceptLogonHrdxs47254722215a',
    );
    await checker.join('FUZZ');
    checker.sendGame(['action|input', '|text|still here']);
    await engine.waitForLine(/\[FUZZ\] Checker: still here$/);
    assert.equal(engine.child.exitCode, null);
    const bad = engine.lines.filter((l) => /\[(ERROR|FATAL)\]/.test(l));
    assert.deepEqual(bad, []);
  });

  it('drops a peer that floods far past the packet rate limit', async () => {
    const flooder = await connect();
    await flooder.login(testToken('flooder'));
    const from = flooder.received.length;
    for (let i = 0; i < 400; i++) flooder.send(tankBytes({ tankType: 0, x: i, y: 0 }));
    const told = await flooder.waitForCall('OnConsoleMessage', from);
    assert.equal(told.call?.args[0], 'Too many packets.');
    await flooder.waitForDisconnect();
    assert.deepEqual((await engine.request('GET', '/stats')).body.players >= 1, true);
  });
});
