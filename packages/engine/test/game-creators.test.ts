// The General tab's settings in the game (issue 20, point 7), tried from a client's side over real UDP: the
// creator list gives creator rights (in-game commands) and the autofarm delay spaces the automated farm actions.
// Both are re-read by the engine's reload, as the panel's Save does.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { engineConfigFiles } from '@canopy/contract';
import { type Bot, TankType } from '@canopy/gtclient';
import { type BotEngine, enter, startBotEngine } from './support/bots.ts';
import { buildPlayer, buildWorldWithDoor } from './support/factories.ts';

const DOOR = { x: 10, y: 10 };
const FIELD = { x: DOOR.x + 1, y: DOOR.y }; // a dirt tile beside the door, within reach of the spawn
const DIRT = 2;

describe('creator rights and autofarm in the game', () => {
  let t: BotEngine;
  let sprout: Bot;
  const dataDir = () => t.engine.dataDir;
  const reload = async (file: string, value: unknown) => {
    writeFileSync(join(dataDir(), file), `${JSON.stringify(value)}\n`);
    assert.equal((await t.engine.request('POST', '/reload')).status, 200);
  };
  /** Says a line and resolves with the console answer that matches. */
  const answer = (b: Bot, line: string, pattern: RegExp) => {
    const heard = b.waitForCall('OnConsoleMessage', 10_000, (c) => pattern.test(String(c.args[0])));
    b.say(line);
    return heard.then((c) => String(c.args[0]));
  };

  before(async () => {
    t = await startBotEngine();
    const world = buildWorldWithDoor(100, 20, DOOR);
    world.blocks[FIELD.y * 100 + FIELD.x].fg = DIRT;
    assert.equal((await t.engine.request('PUT', '/worlds/FARM', world)).status, 201);
    for (const name of ['Sprout', 'Farmer'])
      assert.equal(
        (await t.engine.request('PUT', `/players/${name}`, buildPlayer({ inventory: [[DIRT, 5]] }))).status,
        201,
      );
    sprout = await t.bot('sprout');
    await enter(sprout, 'FARM');
  });
  after(() => t.close());

  it('refuses creator commands to a player off the list, and changes nothing', async () => {
    assert.match(await answer(sprout, '/give 10 3', /creator rights/), /\/give needs creator rights on this server/);
    assert.deepEqual((await t.engine.request('GET', '/players/Sprout')).body.inventory, [[DIRT, 5]]);
    assert.match(await answer(sprout, '/help', /Commands:/), /\/autofarm/);
    assert.match(await answer(sprout, '/nosuch', /Unknown command/), /Type \/help/);
  });

  it('gives creator rights once the list names the player (after a reload, no restart)', async () => {
    await reload(engineConfigFiles.creators, ['Sprout']);
    const inventory = sprout.waitFor((e) => e.kind === 'tank' && e.tank.type === TankType.inventory);
    assert.match(await answer(sprout, '/give 10 3', /Given|No item/), /Given 3 of item 10/);
    await inventory;
    assert.deepEqual(sprout.inventory?.items.find((i) => i.id === 10)?.amount, 3, 'the client holds them');
    assert.deepEqual((await t.engine.request('GET', '/players/Sprout')).body.inventory, [
      [DIRT, 5],
      [10, 3],
    ]);
    assert.match(await answer(sprout, '/help', /Commands:/), /\/give/);
    assert.match(await answer(sprout, '/give 65000', /Given|No item/), /No item 65000/);
    assert.match(await answer(sprout, '/kick Nobody', /not online/), /Nobody is not online/);
    // The owner sees what creators did in the server's console.
    await t.engine.waitForLine(/\[INFO\] Creator Sprout used: \/give 10 3$/);
    // Off the list again: the rights go with it.
    await reload(engineConfigFiles.creators, []);
    assert.match(await answer(sprout, '/give 10 3', /creator rights|Given/), /needs creator rights/);
  });

  it('farms the punched tile at the configured autofarm delay, putting the block back, until turned off', async () => {
    const delay = 400;
    await reload(engineConfigFiles.serverConfig, { autofarmDelay: delay });
    const farmer = await t.bot('farmer');
    await enter(farmer, 'FARM');
    assert.match(await answer(farmer, '/autofarm', /Autofarm/), /Autofarm on/);

    // Every hit on the field is shown to the world (tank 8); record when each arrives.
    const hits: number[] = [];
    const changes: number[] = [];
    const onTank = (tank: { type: number; punchX: number; punchY: number; value: number }) => {
      if (tank.punchX !== FIELD.x || tank.punchY !== FIELD.y) return;
      if (tank.type === TankType.tileApplyDamage) hits.push(performance.now());
      if (tank.type === TankType.tileChangeRequest) changes.push(tank.value);
    };
    sprout.on('tank', onTank);
    try {
      farmer.punch(FIELD.x, FIELD.y); // the farmer's own punch picks the tile
      const placedBack = sprout.waitFor(
        (e) => e.kind === 'tank' && e.tank.type === TankType.tileChangeRequest && e.tank.value === DIRT,
        20_000,
      );
      await placedBack;
      await sprout.waitFor(() => hits.length >= 6, 20_000).catch(() => {});
      assert.ok(hits.length >= 6, `automated hits went on (${hits.length})`);
      assert.ok(changes.includes(18) && changes.includes(DIRT), 'the block broke and was put back from the inventory');
      // Automated actions are never closer together than the delay (a slow machine only spaces them more). Over
      // the whole run, from the first automated hit (hits[1]; hits[0] is the farmer's own punch), so that a stall
      // of this process when one hit arrives cannot make the next gap look short. Exact timing: autofarm.test.ts.
      const automated = hits.slice(1);
      const span = (automated.at(-1) as number) - (automated[0] as number);
      assert.ok(span >= (automated.length - 1) * delay - 25, `${automated.length} hits in ${span.toFixed(0)} ms`);
      assert.match(await answer(farmer, '/autofarm', /Autofarm/), /Autofarm off/);
      const after = hits.length;
      await new Promise((r) => setTimeout(r, delay * 3));
      assert.ok(hits.length <= after + 1, 'no more automated hits once off');
    } finally {
      sprout.off('tank', onTank);
    }
  });
});
