import assert from 'node:assert/strict';
import { createSocket } from 'node:dgram';
import { after, before, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
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

  it('holds the port asleep while nobody plays, and a stray datagram does not wake it', async () => {
    const s = createSocket('udp4');
    await new Promise<void>((r) => s.bind(0, '127.0.0.1', r));
    for (const junk of [Buffer.from('hello'), Buffer.alloc(64, 0x11), Buffer.alloc(64)]) {
      await new Promise<void>((r) => s.send(junk, engine.gamePort, '127.0.0.1', () => r()));
    }
    s.close();
    await delay(300);
    assert.ok(!engine.lines.some((l) => /Game network awake/.test(l)), engine.lines.slice(-5).join('\n'));
  });

  it('wakes on the first datagram and lets the retrying client in', async () => {
    const c = await GameClient.connect(engine.gamePort);
    await engine.waitForLine(/\[INFO\] Game network awake on port \d+$/);
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
