// Control API edits (World Manager, Player Database, console give) reach the players in the game at once, and
// what the game holds in memory never writes over them. Headless clients over real UDP against a real engine.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Bot, type BotEvent, decodeWorld, TankType } from '@canopy/gtclient';
import { type BotEngine, enter, startBotEngine } from './support/bots.ts';
import { buildPlayer, buildWorldWithDoor } from './support/factories.ts';

const WIDTH = 30;
const DOOR = { x: 5, y: 5 };
const at = (x: number, y: number) => y * WIDTH + x;
/** Longer than the game's save delay (SAVE_DELAY_MS, 1 s): a pending save would have happened by then. */
const PAST_SAVE = 1600;

const isTank = (type: number) => (e: BotEvent) => e.kind === 'tank' && e.tank.type === type;
const saying = (b: Bot, text: string) =>
  b.waitForCall('OnConsoleMessage', 15_000, (c) => c.args[0] === text).then((c) => c.args[0]);

describe('control API edits reach the game', () => {
  let t: BotEngine;
  let ann: Bot;
  let ben: Bot;
  const world = () => buildWorldWithDoor(WIDTH, 15, DOOR);
  const blocks = async (name: string) => (await t.engine.request('GET', `/worlds/${name}`)).body.blocks;
  before(async () => {
    t = await startBotEngine();
    for (const name of ['Ann', 'Ben'])
      assert.equal(
        (await t.engine.request('PUT', `/players/${name}`, buildPlayer({ inventory: [[2, 10]] }))).status,
        201,
      );
    for (const name of ['EDIT', 'DOOMED', 'LOCKME', 'BAG'])
      assert.equal((await t.engine.request('PUT', `/worlds/${name}`, world())).status, 201);
    ann = await t.bot('ann');
    ben = await t.bot('ben');
  });
  after(() => t.close());

  /** Ann places dirt at (x, y) and Ben sees it: a change the game holds and has not saved yet. */
  const placeUnsaved = async (x: number, y: number) => {
    const seen = ben.waitFor((e) => isTank(TankType.tileChangeRequest)(e) && e.kind === 'tank' && e.tank.punchX === x);
    ann.place(x, y, 2);
    await seen;
  };

  it('keeps a block placed in the game after the World Manager read the world: the stale save is refused', async () => {
    await enter(ann, 'EDIT');
    await enter(ben, 'EDIT');
    const read = (await t.engine.request('GET', '/worlds/EDIT')).body;
    await placeUnsaved(DOOR.x + 1, DOOR.y - 1);
    const edit = (w: typeof read) => ({
      ...w,
      blocks: w.blocks.map((b: object, i: number) => (i === at(DOOR.x + 3, DOOR.y - 1) ? { ...b, fg: 10 } : b)),
    });
    // Saved on the copy read before the placement, the edit would undo it (issue 21): a 409 instead.
    const stale = await t.engine.request('PUT', '/worlds/EDIT?answer=brief', edit(read));
    assert.equal(stale.status, 409);
    assert.equal(stale.body.code, 'version_conflict');
    // A read shows what the game holds unsaved at once (no wait for the save delay), at a newer version.
    const fresh = (await t.engine.request('GET', '/worlds/EDIT')).body;
    assert.equal(fresh.blocks[at(DOOR.x + 1, DOOR.y - 1)].fg, 2);
    assert.ok(fresh.version > read.version);

    const resent = [ann, ben].map((b) => b.waitFor(isTank(TankType.sendMapData)));
    const told = [ann, ben].map((b) => saying(b, 'This world was changed by the server owner.'));
    const respawned = ann.waitForCall('OnSpawn', 15_000, (c) => String(c.args[0]).includes('type|local'));
    assert.equal((await t.engine.request('PUT', '/worlds/EDIT?answer=brief', edit(fresh))).status, 200);
    for (const e of await Promise.all(resent)) {
      const tiles = e.kind === 'tank' ? decodeWorld(e.tank.extended)?.tiles : undefined;
      assert.deepEqual([tiles?.[at(DOOR.x + 3, DOOR.y - 1)]?.fg, tiles?.[at(DOOR.x + 1, DOOR.y - 1)]?.fg], [10, 2]);
    }
    await Promise.all(told);
    assert.match(String((await respawned).args[0]), new RegExp(`posXY\\|${DOOR.x * 32}\\|${DOOR.y * 32}\\n`));
    await sleep(PAST_SAVE);
    let stored = await blocks('EDIT');
    assert.deepEqual([stored[at(DOOR.x + 3, DOOR.y - 1)].fg, stored[at(DOOR.x + 1, DOOR.y - 1)].fg], [10, 2]);
    // Play goes on in the edited world, and is saved.
    await placeUnsaved(DOOR.x - 1, DOOR.y - 1);
    await sleep(PAST_SAVE);
    stored = await blocks('EDIT');
    assert.deepEqual([stored[at(DOOR.x + 3, DOOR.y - 1)].fg, stored[at(DOOR.x - 1, DOOR.y - 1)].fg], [10, 2]);
  });

  it('sends the players of a world deleted in the World Manager to the menu, and it stays deleted', async () => {
    await enter(ann, 'DOOMED');
    await enter(ben, 'DOOMED');
    await placeUnsaved(DOOR.x + 1, DOOR.y - 1);
    const menus = [ann, ben].map((b) => b.waitForCall('OnRequestWorldSelectMenu'));
    const told = [ann, ben].map((b) => saying(b, 'This world was deleted by the server owner.'));
    assert.equal((await t.engine.request('DELETE', '/worlds/DOOMED')).status, 200);
    await Promise.all([...menus, ...told]);
    assert.doesNotMatch(String((await menus[0])?.args[0]), /DOOMED/);
    await sleep(PAST_SAVE);
    assert.equal((await t.engine.request('GET', '/worlds/DOOMED')).status, 404);
    // Leaving for another world (which saves the world left, if any) does not bring it back either.
    await enter(ann, 'EDIT');
    assert.equal((await t.engine.request('GET', '/worlds/DOOMED')).status, 404);
  });

  it('sends the players of a world locked in the World Manager to the menu', async () => {
    await enter(ben, 'LOCKME');
    const menu = ben.waitForCall('OnRequestWorldSelectMenu');
    const told = saying(ben, 'This world was locked by the server owner.');
    const locked = {
      ...world(),
      d_weather: 6,
      version: (await t.engine.request('GET', '/worlds/LOCKME')).body.version,
    };
    assert.equal((await t.engine.request('PUT', '/worlds/LOCKME?answer=brief', locked)).status, 200);
    await Promise.all([menu, told]);
    await assert.rejects(ben.join('LOCKME'), /That world is locked/);
  });

  it('gives an online player an inventory set in the Player Database, or by the console give, at once', async () => {
    await enter(ann, 'BAG');
    let sent = ann.waitFor(isTank(TankType.inventory));
    const body = buildPlayer({
      inventory: [
        [2, 7],
        [10, 3],
      ],
      version: (await t.engine.request('GET', '/players/Ann')).body.version,
    });
    assert.equal((await t.engine.request('PUT', '/players/Ann', body)).status, 200);
    await sent;
    assert.deepEqual(
      ann.inventory?.items.map((i) => [i.id, i.amount]),
      [
        [18, 1],
        [32, 1],
        [2, 7],
        [10, 3],
      ],
    );
    // The session holds it too: item 10 can be placed now, and is taken from the stored inventory.
    ann.place(DOOR.x + 1, DOOR.y - 1, 10);
    const deadline = Date.now() + 5000;
    while (
      (await t.engine.request('GET', '/players/Ann')).body.inventory.find(([id]: number[]) => id === 10)[1] !== 2
    ) {
      assert.ok(Date.now() < deadline, 'item 10 placed from the edited inventory');
      await sleep(50);
    }
    sent = ann.waitFor(isTank(TankType.inventory));
    t.engine.type('give Ann 2 5');
    await sent;
    assert.deepEqual(
      ann.inventory?.items.map((i) => [i.id, i.amount]),
      [
        [18, 1],
        [32, 1],
        [2, 12],
        [10, 2],
      ],
    );
  });
});
