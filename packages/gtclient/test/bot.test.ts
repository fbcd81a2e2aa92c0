// The Bot's steps end to end against a scripted front and engine (native ENet hosts, hand-written bytes) and a
// self-signed HTTPS server standing in for the gateway's server_data.php and token call.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { until } from '../../enet/test/native-host.ts';
import { Bot } from '../src/bot.ts';
import { type FakeServer, startFakeServer } from './fake-game-server.ts';
import { type StandIn, startGatewayStandIn } from './gateway-stand-in.ts';

let game: FakeServer;
let gateway: StandIn;

before(async () => {
  game = await startFakeServer();
  gateway = await startGatewayStandIn(game.frontPort);
});

after(() => {
  game.stop();
  gateway.close();
});

test('server_data.php: POSTed like the client, parsed up to the end marker; a self-signed certificate needs insecure', async () => {
  const bot = new Bot();
  await assert.rejects(bot.serverData(gateway.url), /self-signed|certificate/i);
  const data = await bot.serverData(gateway.url, { insecure: true });
  assert.equal(data.server, '127.0.0.1');
  assert.equal(data.port, game.frontPort);
  assert.equal(data.type2, true);
  assert.equal(data.maintenance, null, '#maint is a disabled line');
  assert.equal(data.loginUrl, new URL(gateway.url).host);
  assert.equal(data.meta, 'm3ta');
  assert.equal(data.fields.has('ignored'), false);
  assert.match(gateway.agents.at(-1) ?? '', /UbiServices_SDK/);
});

test('the token call posts server, growId, password and create, and returns the token or the message', async () => {
  const bot = new Bot();
  const url = `${gateway.url}/player/growid/login/validate`;
  const token = await bot.fetchToken(
    url,
    { server: 'MYSERVER', growId: 'Alice', password: 'pw', create: true },
    { insecure: true },
  );
  assert.equal(token, 'good');
  assert.deepEqual(Object.fromEntries(gateway.forms.at(-1) ?? []), {
    server: 'MYSERVER',
    growId: 'Alice',
    password: 'pw',
    create: '1',
  });
  await assert.rejects(
    bot.fetchToken(url, { server: 'MYSERVER', growId: 'Alice', password: 'nope' }, { insecure: true }),
    /Wrong GrowID or password/,
  );
  assert.equal(gateway.forms.at(-1)?.has('create'), false);
});

test('login, items, enter_game, join, chat, move, punch, place, leave, disconnect', async () => {
  const bot = new Bot({ stepTimeoutMs: 5000 });
  const login = await bot.login({ host: '127.0.0.1', port: game.frontPort }, { token: 'good', meta: 'm3ta' });
  assert.deepEqual(login.engine, { host: '127.0.0.1', port: game.enginePort });
  assert.equal(login.name, 'Alice');
  assert.equal(login.refreshedItems, true);
  assert.deepEqual(bot.items, game.items);

  const menu = await bot.enterGame();
  assert.match(menu, /add_floater\|START/);

  const world = await bot.join('START');
  assert.equal(world.name, 'START');
  assert.deepEqual([world.width, world.height, world.tiles.length], [3, 2, 6]);
  assert.deepEqual(world.tiles[3], { fg: 6, bg: 14, parent: 0, flags: 0 });
  assert.ok(world.netId > 0);
  assert.deepEqual(world.spawn, { x: 0, y: 32 });
  await until(() => bot.inventory ?? undefined, 5000, 'inventory');
  assert.deepEqual(bot.inventory?.items, [{ id: 18, amount: 1, flags: 0 }]);

  const bubble = bot.waitForCall('OnTalkBubble');
  bot.say('hello there');
  const said = await bubble;
  assert.deepEqual(said.args, [world.netId, 'hello there', 0]);
  assert.equal(said.netId, world.netId);

  bot.move(64, 32);
  bot.punch(1, 1);
  bot.place(0, 0, 2);
  await until(() => (game.tanks.length >= 3 ? true : undefined), 5000, 'three tanks at the engine');
  const [move, punch, place] = game.tanks;
  assert.equal(move?.readUInt8(4), 0);
  assert.equal(move?.readFloatLE(4 + 24), 64);
  assert.equal(move?.readInt32LE(4 + 4), world.netId);
  assert.deepEqual(
    [punch?.readUInt8(4), punch?.readInt32LE(24), punch?.readInt32LE(48), punch?.readInt32LE(52)],
    [3, 18, 1, 1],
  );
  assert.deepEqual(
    [place?.readUInt8(4), place?.readInt32LE(24), place?.readInt32LE(48), place?.readInt32LE(52)],
    [3, 2, 0, 0],
  );

  assert.match(await bot.leave(), /add_floater/);
  await assert.rejects(bot.join('LOCKED'), /That world is locked\./);
  await bot.disconnect();
  assert.equal(bot.enet?.state, 'closed');
});

test('a cached items.dat with the announced hash is not fetched again', async () => {
  const bot = new Bot({ cachedItems: game.items, stepTimeoutMs: 5000 });
  const login = await bot.login({ host: '127.0.0.1', port: game.frontPort }, { token: 'good' });
  assert.equal(login.refreshedItems, false);
  await bot.disconnect();
});

test('a refused token rejects login with the front message', async () => {
  const bot = new Bot({ stepTimeoutMs: 5000 });
  await assert.rejects(
    bot.login({ host: '127.0.0.1', port: game.frontPort }, { token: 'bad' }),
    /Your login token is not valid\./,
  );
});
