import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { engineConfigFiles, MAX_STACK, SECRET_MASK } from '@canopy/contract';
import {
  killAll,
  type RunningEngine,
  removeDataDir,
  startEngine,
  stopEngine,
  tempDataDir,
} from './support/engine-process.ts';

/** Types a command and resolves with the output lines up to the one matching `until`. */
async function typeInto(engine: RunningEngine, command: string, until: RegExp): Promise<string[]> {
  const from = engine.lines.length;
  engine.type(command);
  const last = await engine.waitForLine(until, from);
  const lines = engine.lines.slice(from);
  return lines.slice(0, lines.indexOf(last) + 1);
}

const writeKit = (dir: string, kit: unknown) =>
  writeFileSync(join(dir, engineConfigFiles.newbieKit), `${JSON.stringify(kit)}\n`);

describe('new players receive the newbie kit', () => {
  let engine: RunningEngine;
  let dataDir = '';
  before(async () => {
    dataDir = tempDataDir();
    // Item 2 twice (150 + 100: one stack, capped at MAX_STACK), item 10 once.
    writeKit(dataDir, {
      ITEMS: [
        {
          Gemss: 250,
          Coin: 7,
          Seasonals_Token: 0,
          items: [
            [2, 150],
            [10, 3],
            [2, 100],
          ],
        },
      ],
    });
    engine = await startEngine({ dataDir });
  });
  after(async () => {
    await stopEngine(engine);
    killAll();
    removeDataDir(dataDir);
  });

  it('register creates the player with the kit and never echoes the password', async () => {
    const out = await typeInto(engine, 'register Newbie1 hunter22', /Registered|WARN|ERROR/);
    assert.match(out[0] ?? '', new RegExp(`\\[INFO\\] > register Newbie1 ${SECRET_MASK.replace(/\*/g, '\\*')}$`));
    assert.match(out.at(-1) ?? '', /\[INFO\] Registered Newbie1 with the newbie kit: 250 gems, 2 items$/);
    assert.ok(!engine.lines.some((l) => l.includes('hunter22')), 'the password is in no line');

    const player = (await engine.request('GET', '/players/newbie1')).body;
    assert.equal(player.name, 'Newbie1');
    assert.equal(player.gems, 250);
    assert.equal(player.level, 1);
    // The fist and the wrench first, as every new player holds them, then the kit.
    assert.deepEqual(player.inventory, [
      [18, 1],
      [32, 1],
      [2, MAX_STACK],
      [10, 3],
    ]);
  });

  it('refuses a name that is taken (any case) and changes nothing', async () => {
    await engine.request('POST', '/console', { command: 'give Newbie1 gems 5' });
    const out = await typeInto(engine, 'register NEWBIE1 other123', /already exists|Registered/);
    assert.match(out.at(-1) ?? '', /\[WARN\] register: A player named NEWBIE1 already exists\.$/);
    assert.equal((await engine.request('GET', '/players/Newbie1')).body.gems, 255);
  });

  it('checks the grammar: a missing password is a usage line that does not echo the arguments', async () => {
    const out = await typeInto(engine, 'register Lonely', /Usage: register/);
    assert.match(out[0] ?? '', /\[INFO\] > register$/);
    assert.match(out.at(-1) ?? '', /\[WARN\] Usage: register <growid> <password>$/);
    assert.equal((await engine.request('GET', '/players/Lonely')).status, 404);
  });

  it('gives the kit in force at start: a changed kit reaches players registered after a restart', async () => {
    writeKit(dataDir, { ITEMS: [] });
    await stopEngine(engine);
    engine = await startEngine({ dataDir });
    await typeInto(engine, 'register Newbie2 hunter22', /Registered|WARN|ERROR/);
    const player = (await engine.request('GET', '/players/Newbie2')).body;
    assert.equal(player.gems, 0);
    assert.deepEqual(player.inventory, [
      [18, 1],
      [32, 1],
    ]);
    assert.equal(
      (await engine.request('GET', '/players/Newbie1')).body.inventory.length,
      4,
      'earlier players keep theirs',
    );
  });
});
