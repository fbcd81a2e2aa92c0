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
import { buildPlayer, buildWorld } from './support/factories.ts';
import { GameClient, type Received, tankBytes, testToken } from './support/game-client.ts';

/** The world data layout of docs/game-protocol.md ("World data"), read field by field. */
function readWorld(m: Received) {
  const b = m.extended as Buffer;
  const nameLength = b.readUInt16LE(6);
  let at = 8 + nameLength;
  const world = {
    version: b.readUInt16LE(0),
    flags: b.readUInt32LE(2),
    name: b.toString('latin1', 8, 8 + nameLength),
    width: b.readUInt32LE(at),
    height: b.readUInt32LE(at + 4),
    tileCount: b.readUInt32LE(at + 8),
    fg: [] as number[],
    bg: [] as number[],
    labels: [] as string[],
    rest: 0,
  };
  at += 12 + 5; // the 5 zero bytes after the tile count
  for (let i = 0; i < world.tileCount; i++) {
    world.fg.push(b.readUInt16LE(at));
    world.bg.push(b.readUInt16LE(at + 2));
    const flags = b.readUInt16LE(at + 6);
    at += 8;
    if (!(flags & 1)) continue;
    // Extra data: only doors (kind 1: label, one byte) in these worlds.
    assert.equal(b[at], 1, 'a door extra');
    const length = b.readUInt16LE(at + 1);
    world.labels.push(b.toString('latin1', at + 3, at + 3 + length));
    at += 3 + length + 1;
  }
  world.rest = b.length - at;
  return world;
}

const start = (dataDir: string) =>
  startEngine({
    dataDir,
    args: ['--data-dir', dataDir, '--game-port', '0', '--control-port', '0', '--standard-enet-header'],
  });

describe('game worlds', () => {
  const dataDir = tempDataDir();
  let engine: RunningEngine;
  let a: GameClient;
  let b: GameClient;
  let door = { x: 0, y: 0 };
  let width = 0;
  let placedAt = { x: 0, y: 0 };
  before(async () => {
    engine = await start(dataDir);
    for (const name of ['Alice', 'Bob'])
      assert.equal(
        (await engine.request('PUT', `/players/${name}`, buildPlayer({ inventory: [[2, 10]] }))).status,
        201,
      );
    assert.equal(
      (await engine.request('PUT', '/worlds/SHUT', buildWorld({ d_weather: 6 }))).status,
      201,
      'a locked world',
    );
    a = await GameClient.connect(engine.gamePort);
    b = await GameClient.connect(engine.gamePort);
    await a.login(testToken('alice'));
    await b.login(testToken('bob'));
  });
  after(async () => {
    a?.close();
    b?.close();
    await stopEngine(engine);
    killAll();
    removeDataDir(dataDir);
  });

  it('creates and stores an unknown world on join and sends its data, spawn and inventory', async () => {
    const from = a.received.length;
    const { worldData, spawn } = await a.join('garden');
    const w = readWorld(worldData);
    assert.deepEqual(
      { version: w.version, flags: w.flags, name: w.name, width: w.width, height: w.height, tiles: w.tileCount },
      { version: 0x14, flags: 0x40, name: 'GARDEN', width: 100, height: 60, tiles: 6000 },
    );
    assert.deepEqual(w.labels, ['EXIT'], 'the main door carries its label');
    assert.equal(w.rest, 12 + 8 + 12, 'a gap, no dropped objects, the weather trailer');
    const doorAt = w.fg.indexOf(6);
    assert.ok(doorAt >= 0, 'a main door');
    assert.equal(w.fg[doorAt + 100], 8, 'bedrock under the door');
    width = w.width;
    door = { x: (doorAt % 100) * 32, y: Math.floor(doorAt / 100) * 32 };
    assert.match(String(spawn.call?.args[0]), new RegExp(`posXY\\|${door.x}\\|${door.y}\\n`));
    assert.match(String(spawn.call?.args[0]), /name\|`wAlice``\n/);
    const inventory = await a.waitFor((m) => m.tank?.tankType === 9, from);
    const inv = inventory.extended as Buffer;
    // Version 1, 100 slots, 3 stacks: the fist and the wrench every player holds, then Alice's 10 dirt.
    assert.deepEqual(
      [
        inv[0],
        inv.readUInt32LE(1),
        inv.readUInt16LE(5),
        inv.readUInt16LE(7),
        inv.readUInt16LE(11),
        inv.readUInt16LE(15),
        inv[17],
      ],
      [1, 100, 3, 18, 32, 2, 10],
    );
    const entered = await a.waitFor((m) => /World GARDEN entered/.test(String(m.call?.args[0])), from);
    assert.match(String(entered.call?.args[0]), /There are 0 other people here/);
    // The World Manager's list has it, with its player.
    const list = (await engine.request('GET', '/worlds?search=GARDEN')).body;
    assert.deepEqual(
      list.worlds.map((x: { name: string; players: number }) => [x.name, x.players]),
      [['GARDEN', 1]],
    );
  });

  it('spawns the second player for both and relays movement to the others only', async () => {
    const aFrom = a.received.length;
    const { spawn } = await b.join('GARDEN');
    const bNetId = Number(/netID\|(\d+)/.exec(String(spawn.call?.args[0]))?.[1]);
    const seen = await a.waitFor((m) => m.call?.name === 'OnSpawn', aFrom);
    assert.match(String(seen.call?.args[0]), /name\|`wBob``\n/);
    assert.doesNotMatch(String(seen.call?.args[0]), /type\|local/);
    await b.waitFor((m) => m.call?.name === 'OnSpawn' && /name\|`wAlice``\n/.test(String(m.call.args[0])));
    const bFrom = b.received.length;
    const aMoveFrom = a.received.length;
    a.send(tankBytes({ tankType: 0, x: door.x + 16, y: door.y }));
    const moved = await b.waitFor((m) => m.tank?.tankType === 0, bFrom);
    assert.equal(moved.tank?.x, door.x + 16);
    assert.notEqual(moved.tank?.netId, bNetId, "the mover's netId");
    assert.ok(!a.received.slice(aMoveFrom).some((m) => m.tank?.tankType === 0), 'not echoed to the mover');
    a.send(tankBytes({ tankType: 0, x: door.x, y: door.y }));
    assert.equal((await engine.request('GET', '/stats')).body.players, 2);
  });

  it('carries chat to everyone in the world and to the console', async () => {
    const aFrom = a.received.length;
    const bFrom = b.received.length;
    a.sendGame(['action|input', '|text|  hello   there  ']);
    for (const [c, from] of [
      [a, aFrom],
      [b, bFrom],
    ] as const) {
      const bubble = await c.waitForCall('OnTalkBubble', from);
      assert.equal(bubble.call?.args[1], 'hello there');
      const line = await c.waitFor((m) => /CT:\[W\]_ <Alice> hello there$/.test(String(m.call?.args[0])), from);
      assert.equal(line.call?.name, 'OnConsoleMessage');
    }
    await engine.waitForLine(/\[INFO\] \[GARDEN\] Alice: hello there$/);
  });

  it('places an item from the inventory, seen by the other player, and refuses one not held', async () => {
    placedAt = { x: door.x / 32, y: door.y / 32 - 1 };
    const bFrom = b.received.length;
    a.send(tankBytes({ tankType: 3, value: 2, punchX: placedAt.x, punchY: placedAt.y }));
    const change = await b.waitFor((m) => m.tank?.tankType === 3, bFrom);
    assert.deepEqual([change.tank?.value, change.tank?.punchX, change.tank?.punchY], [2, placedAt.x, placedAt.y]);
    assert.deepEqual((await engine.request('GET', '/players/Alice')).body.inventory, [[2, 9]]);
    // An item Alice does not hold, and a tile out of reach, change nothing.
    const again = b.received.length;
    a.send(tankBytes({ tankType: 3, value: 10, punchX: placedAt.x + 1, punchY: placedAt.y }));
    a.send(tankBytes({ tankType: 3, value: 2, punchX: placedAt.x + 10, punchY: placedAt.y }));
    a.sendGame(['action|input', '|text|marker']);
    await b.waitForCall('OnTalkBubble', again);
    assert.ok(!b.received.slice(again).some((m) => m.tank?.tankType === 3));
  });

  it('keeps the placed tile in the World Manager within a second', async () => {
    const deadline = Date.now() + 5000;
    for (;;) {
      const world = (await engine.request('GET', '/worlds/GARDEN')).body;
      if (world.blocks[placedAt.y * width + placedAt.x].fg === 2) break;
      assert.ok(Date.now() < deadline, 'saved');
      await new Promise((r) => setTimeout(r, 100));
    }
  });

  it('breaks a tile with punches and tells everyone', async () => {
    const bFrom = b.received.length;
    const target = { x: placedAt.x, y: placedAt.y };
    // Punch until the break arrives (dirt's break hits come from items.dat), under the packet rate limit.
    let broke: Received | undefined;
    for (let i = 0; i < 12 && !broke; i++) {
      a.send(tankBytes({ tankType: 3, value: 18, punchX: target.x, punchY: target.y }));
      broke = await b.waitFor((m) => m.tank?.tankType === 3 && m.tank.value === 18, bFrom, 300).catch(() => undefined);
    }
    assert.deepEqual([broke?.tank?.punchX, broke?.tank?.punchY], [target.x, target.y]);
    // Put it back for the restart test.
    const again = b.received.length;
    a.send(tankBytes({ tankType: 3, value: 2, punchX: target.x, punchY: target.y }));
    await b.waitFor((m) => m.tank?.tankType === 3 && m.tank.value === 2, again);
  });

  it('refuses a locked world and a bad name', async () => {
    for (const [name, reason] of [
      ['SHUT', 'That world is locked.'],
      ['no-such!', 'That world name is not valid.'],
    ]) {
      const from = b.received.length;
      b.sendGame(['action|join_request', `name|${name}`, 'invitedWorld|0']);
      const failed = await b.waitForCall('OnFailedToEnterWorld', from);
      assert.equal(failed.call?.args[0], 1);
      await b.waitFor((m) => m.call?.args[0] === reason, from);
    }
  });

  it('removes a leaving player for the others and shows the menu again', async () => {
    const aFrom = a.received.length;
    const bFrom = b.received.length;
    // b left GARDEN when it tried the other worlds; it joins again and then quits to the menu.
    await b.join('GARDEN');
    const bNetId = /netID\|(\d+)/.exec(
      String(b.received.slice(bFrom).find((m) => /type\|local/.test(String(m.call?.args[0])))?.call?.args[0]),
    )?.[1];
    const quitFrom = b.received.length;
    b.sendGame(['action|quit_to_exit']);
    const removed = await a.waitFor(
      (m) => m.call?.name === 'OnRemove' && m.call.args[0] === `netID|${bNetId}\n`,
      aFrom,
    );
    assert.ok(removed);
    await b.waitForCall('OnRequestWorldSelectMenu', quitFrom);
  });

  it('still has the placed tile after a restart', async () => {
    a.close();
    b.close();
    await stopEngine(engine);
    engine = await start(dataDir);
    const world = (await engine.request('GET', '/worlds/GARDEN')).body;
    assert.equal(world.blocks[placedAt.y * width + placedAt.x].fg, 2);
    // And a player joining sees it.
    a = await GameClient.connect(engine.gamePort);
    b = await GameClient.connect(engine.gamePort);
    await a.login(testToken('alice'));
    const { worldData } = await a.join('GARDEN');
    assert.equal(readWorld(worldData).fg[placedAt.y * width + placedAt.x], 2);
  });
});
