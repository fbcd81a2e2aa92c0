import assert from 'node:assert/strict';
import { createSocket } from 'node:dgram';
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
import { GameClient, testToken } from './support/game-client.ts';

const PEER_LIMIT = 4;

describe('a flood of connection attempts', () => {
  let engine: RunningEngine;
  const clients: GameClient[] = [];
  before(async () => {
    const dataDir = tempDataDir();
    engine = await startEngine({
      dataDir,
      args: [
        ...['--data-dir', dataDir, '--game-port', '0', '--control-port', '0'],
        ...['--standard-enet-header', '--peer-limit', String(PEER_LIMIT)],
      ],
    });
    assert.equal((await engine.request('PUT', '/players/Late', buildPlayer())).status, 201);
  });
  after(async () => {
    for (const c of clients) c.close();
    await stopEngine(engine);
    killAll();
    removeDataDir(engine.dataDir);
  });

  it('admits at most the peer limit and stays responsive to the control API and to players', async () => {
    // Junk datagrams first: they wake the engine and must be shrugged off.
    const junk = createSocket('udp4');
    for (let i = 0; i < 2000; i++) junk.send(Buffer.alloc(1 + (i % 300), i), engine.gamePort, '127.0.0.1');
    await engine.waitForLine(/Game network awake/);
    const attempts = await Promise.allSettled(
      Array.from({ length: 3 * PEER_LIMIT }, () => GameClient.connect(engine.gamePort, 4000)),
    );
    const admitted = attempts.filter((a) => a.status === 'fulfilled').map((a) => a.value);
    clients.push(...admitted);
    assert.ok(admitted.length >= 1 && admitted.length <= PEER_LIMIT, `admitted ${admitted.length}`);
    assert.equal((await engine.request('GET', '/stats')).status, 200);
    for (let i = 0; i < 500; i++) junk.send(Buffer.alloc(64, i), engine.gamePort, '127.0.0.1');
    junk.close();
    // Once the flood lets go, a player gets in.
    for (const c of admitted) await c.disconnect();
    const late = await GameClient.connect(engine.gamePort);
    clients.push(late);
    assert.equal((await late.login(testToken('late'))).call?.name, 'OnSuperMainStartAcceptLogonHrdxs47254722215a');
    assert.equal(engine.child.exitCode, null);
  });
});
