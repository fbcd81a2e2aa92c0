// The main flow with the headless client (@canopy/gtclient: its own ENet with the game client's "new packet"
// header, its own codec) against an engine in its production ENet mode, through a stand-in front.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Bot, type CallEvent, protonHash, TankType } from '@canopy/gtclient';
import {
  killAll,
  type RunningEngine,
  removeDataDir,
  startEngine,
  stopEngine,
  tempDataDir,
} from './support/engine-process.ts';
import { buildPlayer } from './support/factories.ts';
import { startFrontStandIn } from './support/front-stand-in.ts';
import { testToken } from './support/game-client.ts';

describe('game flow with the headless client', () => {
  const dataDir = tempDataDir();
  let engine: RunningEngine;
  let front: ReturnType<typeof startFrontStandIn>;
  const bots: Bot[] = [];
  const start = () =>
    startEngine({ dataDir, args: ['--data-dir', dataDir, '--game-port', '0', '--control-port', '0'] });
  const bot = async (growId: string) => {
    const b = new Bot({ stepTimeoutMs: 15_000 });
    bots.push(b);
    const result = await b.login({ host: '127.0.0.1', port: front.port }, { token: testToken(growId) });
    return { b, result };
  };
  before(async () => {
    engine = await start();
    front = startFrontStandIn(engine.gamePort);
    for (const name of ['Ann', 'Ben', 'Cat'])
      assert.equal((await engine.request('PUT', `/players/${name}`, buildPlayer({ inventory: [[2, 5]] }))).status, 201);
    await engine.waitForLine(/Built effective-items\.dat/);
  });
  after(async () => {
    for (const b of bots) await b.disconnect().catch(() => {});
    front.close();
    await stopEngine(engine);
    killAll();
    removeDataDir(dataDir);
  });

  let ann: Bot;
  let ben: Bot;
  let placed = { x: 0, y: 0 };

  it('logs in, refreshes the items.dat the engine serves and enters the game', async () => {
    const { b, result } = await bot('ann');
    ann = b;
    assert.equal(result.engine.port, engine.gamePort);
    assert.equal(result.refreshedItems, true);
    assert.equal(protonHash(ann.items as Buffer), result.itemsHash, 'the items.dat matches the announced hash');
    assert.equal((await engine.request('GET', '/stats')).body.itemsDatHash, result.itemsHash);
    assert.match(
      await ann.enterGame(),
      /^add_filter\|\nadd_heading\|Top Worlds<ROW2>\|\n(add_floater\|[A-Z0-9]+\|\d+\|0\.5\|3529161471\n)*$/,
    );
  });

  it('joins a world and sees a second player join, move and chat', async () => {
    const world = await ann.join('BOTS');
    assert.deepEqual([world.name, world.width, world.height, world.tiles.length], ['BOTS', 100, 60, 6000]);
    ben = (await bot('ben')).b;
    await ben.enterGame();
    const spawned = ann.waitForCall('OnSpawn', 15_000, (c) => /name\|`wBen``\n/.test(String(c.args[0])));
    await ben.join('bots');
    await spawned;
    // A step from the spawn: the engine refuses positions a player could not have reached.
    const stepX = ben.position.x + 16;
    const moved = ann.waitFor((e) => e.kind === 'tank' && e.tank.type === TankType.state && e.tank.x === stepX);
    ben.move(stepX, ben.position.y);
    const m = await moved;
    assert.equal(m.kind === 'tank' && m.tank.netId, ben.netId);
    const heard = ann.waitForCall('OnTalkBubble', 15_000, (c: CallEvent) => c.args[1] === 'hi ann');
    ben.say('hi ann');
    await heard;
    await engine.waitForLine(/\[INFO\] \[BOTS\] Ben: hi ann$/);
  });

  it('shows a tile placed by one bot to the other and keeps it over a restart', async () => {
    const door = ann.world?.spawn as { x: number; y: number };
    placed = { x: door.x / 32, y: door.y / 32 - 1 };
    const seen = ben.waitFor(
      (e) => e.kind === 'tank' && e.tank.type === TankType.tileChangeRequest && e.tank.value === 2,
    );
    ann.place(placed.x, placed.y, 2);
    const change = await seen;
    assert.deepEqual(change.kind === 'tank' && [change.tank.punchX, change.tank.punchY], [placed.x, placed.y]);
    for (const b of bots) await b.disconnect();
    bots.length = 0;
    front.close();
    await stopEngine(engine);
    engine = await start();
    front = startFrontStandIn(engine.gamePort);
    const again = (await bot('cat')).b;
    await again.enterGame();
    const world = await again.join('BOTS');
    assert.equal(world.tiles[placed.y * world.width + placed.x]?.fg, 2);
  });

  it('disconnects a bot kicked from the console at once', async () => {
    const cat = bots[0] as Bot;
    const gone = cat.waitFor((e) => e.kind === 'disconnect', 15_000);
    engine.type('kick Cat');
    await gone;
    assert.equal(cat.lastConsole, 'You have been disconnected: kicked from the console');
  });
});
