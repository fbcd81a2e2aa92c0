// What a player may do in a world, bounded: new worlds a minute, movement speed and reach, chat rate; and an
// inventory stack used up is gone. Headless clients over real UDP against a real engine.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Bot, TankType } from '@canopy/gtclient';
import { MOVE_BUDGET } from '../src/net/game/movement.ts';
import { type BotEngine, enter, record, startBotEngine } from './support/bots.ts';
import { buildPlayer, buildWorldWithDoor } from './support/factories.ts';

const DOOR = { x: 10, y: 10 };
const SPAWN = { x: DOOR.x * 32, y: DOOR.y * 32 };

describe('game limits', () => {
  let t: BotEngine;
  let ben: Bot;
  before(async () => {
    t = await startBotEngine();
    const put = (path: string, body: unknown) => t.engine.request('PUT', path, body).then((r) => r.status);
    for (const [name, inventory] of [
      ['Ann', [[2, 10]]],
      ['Ben', [[2, 10]]],
      ['Cat', [[2, 1]]],
      ['Dan', []],
      ['Eve', []],
    ] as const)
      assert.equal(await put(`/players/${name}`, buildPlayer({ inventory })), 201);
    assert.equal(await put('/worlds/ARENA', buildWorldWithDoor(100, 20, DOOR)), 201);
    ben = await t.bot('ben');
  });
  after(() => t.close());

  it('lets a player create 3 new worlds a minute, also across logins; others and existing worlds unaffected', async () => {
    let ann = await t.bot('ann');
    for (const name of ['NEWA1', 'NEWA2', 'NEWA3']) assert.equal((await enter(ann, name)).name, name);
    await assert.rejects(ann.join('NEWA4'), /^Error: You can create 3 new worlds a minute\./);
    assert.equal((await t.engine.request('GET', '/worlds/NEWA4')).status, 404, 'nothing was created');
    assert.equal((await enter(ann, 'NEWA1')).name, 'NEWA1', 'an existing world is always joinable');
    await ann.disconnect();
    ann = await t.bot('ann');
    await assert.rejects(ann.join('NEWA5'), /You can create 3 new worlds a minute/);
    assert.equal((await enter(ben, 'NEWB1')).name, 'NEWB1', 'the limit is per player');
  });

  it('takes only positions a player could have reached, and measures the reach of placing from them', async () => {
    const ann = await t.bot('ann');
    await enter(ann, 'ARENA');
    await enter(ben, 'ARENA');
    const seen = record(ben);
    // Walking is relayed.
    const walked = ben.waitFor((e) => e.kind === 'tank' && e.tank.type === TankType.state && e.tank.x === SPAWN.x + 96);
    for (let i = 1; i <= 6; i++) {
      ann.move(SPAWN.x + 16 * i, SPAWN.y);
      await sleep(30);
    }
    await walked;
    const at = { x: SPAWN.x + 96, y: SPAWN.y };
    // A jump across the world is not: the client is put back, and placing far away (where it claims to be) fails.
    const putBack = ann.waitForCall('OnSetPos');
    ann.move(2900, SPAWN.y);
    assert.deepEqual((await putBack).args[0], [at.x, at.y]);
    ann.place(90, DOOR.y - 1, 2);
    // Out of the world is refused even when near enough in time.
    await sleep(400);
    const outside = ann.waitForCall('OnSetPos');
    ann.move(at.x, -40);
    assert.deepEqual((await outside).args[0], [at.x, at.y]);
    // Placing within reach of the accepted position works, and marks the end of what ben may see.
    const tileX = at.x / 32;
    const placed = ben.waitFor((e) => e.kind === 'tank' && e.tank.type === TankType.tileChangeRequest);
    ann.position = at;
    ann.place(tileX, DOOR.y - 1, 2);
    const change = await placed;
    assert.equal(change.kind === 'tank' && change.tank.punchX, tileX, 'the far placement was refused');
    seen.stop();
    const states = seen.seen.filter((e) => e.tank?.type === TankType.state).map((e) => [e.tank?.x, e.tank?.y]);
    assert.ok(!states.some(([x, y]) => x === 2900 || y === -40), `relayed ${JSON.stringify(states)}`);
    assert.deepEqual((await t.engine.request('GET', '/players/Ann')).body.inventory, [[2, 9]]);
  });

  it('does not let many small steps add up to a teleport (one distance budget, refilled at walking pace)', async () => {
    const eve = await t.bot('eve');
    await enter(eve, 'ARENA');
    const putBack = eve.waitForCall('OnSetPos');
    // 40 steps of 60 px at once: each within the slack, together 2,400 px in a few milliseconds.
    for (let i = 1; i <= 40; i++) eve.move(SPAWN.x + 60 * i, SPAWN.y);
    const [x] = (await putBack).args[0] as number[];
    assert.ok(x !== undefined && x > SPAWN.x && x <= SPAWN.x + MOVE_BUDGET + 60, `stopped at ${x}`);
  });

  it('rate-limits chat per player (5 lines in 5 seconds) without holding up movement', async () => {
    const dan = await t.bot('dan');
    await enter(dan, 'ARENA');
    const seen = record(ben);
    const slowed = dan.waitForCall('OnConsoleMessage', 5000, (c) => /Slow down/.test(String(c.args[0])));
    const burstAt = Date.now();
    for (let i = 1; i <= 8; i++) dan.say(`line ${i}`);
    assert.equal(
      (await slowed).args[0],
      '`4Slow down!`` You can chat 5 times every 5 seconds.',
      'the sender is told why',
    );
    const moved = ben.waitFor((e) => e.kind === 'tank' && e.tank.type === TankType.state && e.tank.x === SPAWN.x + 16);
    dan.move(SPAWN.x + 16, SPAWN.y);
    await moved;
    await sleep(burstAt + 5200 - Date.now());
    const heard = ben.waitForCall('OnTalkBubble', 5000, (c) => c.args[1] === 'after the wait');
    dan.say('after the wait');
    await heard;
    seen.stop();
    // Chat bubbles only (a player entering the world is announced with a bubble too).
    const bubbles = seen.seen
      .filter((e) => e.call?.name === 'OnTalkBubble' && !String(e.call.args[1]).includes('entered'))
      .map((e) => e.call?.args[1]);
    assert.deepEqual(bubbles, ['line 1', 'line 2', 'line 3', 'line 4', 'line 5', 'after the wait']);
  });

  it('removes a stack whose last item was placed, in the session and in the Player Database', async () => {
    const cat = await t.bot('cat');
    await enter(cat, 'ARENA');
    // The fist and wrench are always held (never used up), then the stored stacks.
    const held = (items = cat.inventory?.items ?? []) => items.filter((i) => i.id !== 18 && i.id !== 32);
    assert.deepEqual(
      cat.inventory?.items.map((i) => i.id),
      [18, 32, 2],
    );
    assert.deepEqual(held(), [{ id: 2, amount: 1, flags: 0 }]);
    const placed = ben.waitFor((e) => e.kind === 'tank' && e.tank.type === TankType.tileChangeRequest);
    cat.place(DOOR.x - 1, DOOR.y - 1, 2);
    await placed;
    assert.deepEqual((await t.engine.request('GET', '/players/Cat')).body.inventory, []);
    await cat.leave();
    await enter(cat, 'ARENA');
    assert.deepEqual(held(), [], 'the inventory sent on the next join has no empty stack');
  });
});
