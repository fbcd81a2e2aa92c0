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
import { GameClient, testToken } from './support/game-client.ts';

describe('game moderation', () => {
  let engine: RunningEngine;
  const clients: GameClient[] = [];
  /** A client logged in as `name` and standing in world MOD. */
  const playing = async (name: string) => {
    const c = await GameClient.connect(engine.gamePort);
    clients.push(c);
    await c.login(testToken(name));
    await c.join('MOD');
    return c;
  };
  /** Expects the engine to tell `c` why and then disconnect it. */
  const thrownOut = async (c: GameClient, from: number, reason: RegExp) => {
    const told = await c.waitFor(
      (m) => m.call?.name === 'OnConsoleMessage' && reason.test(String(m.call.args[0])),
      from,
    );
    assert.match(String(told.call?.args[0]), /^You have been disconnected: /);
    await c.waitForDisconnect();
  };
  before(async () => {
    const dataDir = tempDataDir();
    engine = await startEngine({
      dataDir,
      args: ['--data-dir', dataDir, '--game-port', '0', '--control-port', '0', '--standard-enet-header'],
    });
    for (const name of ['Kicked', 'Banned', 'Deleted', 'Stays'])
      assert.equal((await engine.request('PUT', `/players/${name}`, buildPlayer())).status, 201);
  });
  after(async () => {
    for (const c of clients) c.close();
    await stopEngine(engine);
    killAll();
    removeDataDir(engine.dataDir);
  });

  it('sends a console broadcast to everyone online', async () => {
    const stays = await playing('stays');
    const from = stays.received.length;
    engine.type('say maintenance at noon');
    await stays.waitFor((m) => m.call?.name === 'OnConsoleMessage' && m.call.args[0] === 'maintenance at noon', from);
    await engine.waitForLine(/\[SERVER\] maintenance at noon \(sent to 1 player\)/);
  });

  it('disconnects a player kicked from the console at once, and tells the others', async () => {
    const stays = clients[0] as GameClient;
    const kicked = await playing('kicked');
    const from = kicked.received.length;
    const othersFrom = stays.received.length;
    engine.type('kick KICKED');
    await engine.waitForLine(/\[INFO\] Kicked KICKED$/);
    await thrownOut(kicked, from, /kicked from the console/);
    await stays.waitForCall('OnRemove', othersFrom);
    assert.deepEqual((await engine.request('GET', '/stats')).body.players, 1);
  });

  it('disconnects a player banned from the console, and the ban holds at the next login', async () => {
    const banned = await playing('banned');
    const from = banned.received.length;
    engine.type('ban Banned griefing');
    await thrownOut(banned, from, /banned: griefing/);
    await engine.waitForLine(/Banned Banned \(griefing\) and disconnected them/);
    const again = await GameClient.connect(engine.gamePort);
    clients.push(again);
    const answer = await again.login(testToken('banned'));
    assert.match(String(answer.call?.args[0]), /banned/);
  });

  it('disconnects a player banned from the Player Database (engine control route)', async () => {
    const deleted = await playing('deleted');
    const from = deleted.received.length;
    assert.equal((await engine.request('DELETE', '/players/Deleted')).status, 200);
    await thrownOut(deleted, from, /banned: banned from the panel/);
    assert.deepEqual((await engine.request('GET', '/stats')).body.players, 1);
  });
});
