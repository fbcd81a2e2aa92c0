import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
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

/** Whether the engine process has growtopia.js's native module mapped. */
const nativeLoaded = (pid: number) => /growtopia/.test(readFileSync(`/proc/${pid}/maps`, 'utf8'));

describe('game network sleep and wake', () => {
  let engine: RunningEngine;
  before(async () => {
    const dataDir = tempDataDir();
    engine = await startEngine({
      dataDir,
      args: [
        ...['--data-dir', dataDir, '--game-port', '0', '--control-port', '0'],
        ...['--standard-enet-header', '--sleep-after-ms', '300'],
      ],
    });
    assert.equal((await engine.request('PUT', '/players/Sleeper', buildPlayer())).status, 201);
  });
  after(async () => {
    await stopEngine(engine);
    killAll();
    removeDataDir(engine.dataDir);
  });

  it('holds the port without loading ENet while nobody plays', () => {
    assert.equal(nativeLoaded(engine.pid), false);
    assert.ok(!engine.lines.some((l) => /Game network awake/.test(l)));
  });

  it('wakes on the first datagram and lets the retrying client in', async () => {
    const c = await GameClient.connect(engine.gamePort);
    await engine.waitForLine(/\[INFO\] Game network awake on port \d+$/);
    assert.equal(nativeLoaded(engine.pid), true);
    assert.equal((await c.login(testToken('sleeper'))).call?.name, 'OnSuperMainStartAcceptLogonHrdxs47254722215a');
    const from = engine.lines.length;
    await c.disconnect();
    // Asleep again once the last peer left and the quiet time passed: the dgram socket holds the port.
    await engine.waitForLine(/\[INFO\] Game network asleep \(no players\)$/, from);
  });

  it('wakes again after sleeping', async () => {
    const from = engine.lines.length;
    const c = await GameClient.connect(engine.gamePort);
    await engine.waitForLine(/Game network awake/, from);
    assert.equal((await c.login(testToken('sleeper'))).call?.name, 'OnSuperMainStartAcceptLogonHrdxs47254722215a');
    await c.disconnect();
  });
});
