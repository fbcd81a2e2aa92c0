// The Bot's steps end to end against a scripted front and engine (native ENet hosts, hand-written bytes) and a
// self-signed HTTPS server standing in for the gateway's server_data.php and token call.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { until } from '../../enet/test/native-host.ts';
import { Bot } from '../src/bot.ts';
import { checkToken } from '../src/token.ts';
import { type FakeServer, startFakeServer } from './fake-game-server.ts';
import { type StandIn, startGatewayStandIn } from './gateway-stand-in.ts';

const GAME_LOGIN_KEYS = [
  'tankIDName',
  'tankIDPass',
  'requestedName',
  'f',
  'protocol',
  'game_version',
  'fz',
  'cbits',
  'player_age',
  'GDPR',
  'FCMToken',
  'category',
  'totalPlaytime',
  'klv',
  'hash2',
  'meta',
  'fhash',
  'rid',
  'platformID',
  'deviceVersion',
  'country',
  'hash',
  'mac',
  'wk',
  'zf',
  'lmode',
  'user',
  'token',
  'UUIDToken',
  'doorID',
  'aat',
];

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

test('server_data.php: the real client form, platform then protocol 225 then version 5.51', async () => {
  await new Bot().serverData(gateway.url, { insecure: true });
  assert.equal(gateway.bodies.at(-1), 'platform=0&protocol=225&version=5.51');
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
    (err: Error) => err.message === 'Wrong GrowID or password.',
    'the HTML page error, its text only',
  );
  assert.equal(gateway.forms.at(-1)?.has('create'), false);
  await assert.rejects(
    bot.fetchToken(url, { server: 'MYSERVER', growId: 'Alice', password: 'json-refusal' }, { insecure: true }),
    (err: Error) => err.message === 'Too many attempts.',
    'a JSON refusal still surfaces its message',
  );
});

test('checkToken posts refreshToken and clientData to /player/growid/checktoken and returns the new token', async () => {
  const url = `${gateway.url}/player/growid/checktoken`;
  assert.equal(await checkToken(url, 'good', 'tankIDName|\nprotocol|225', { insecure: true }), 'fresh');
  assert.deepEqual(Object.fromEntries(gateway.forms.at(-1) ?? []), {
    refreshToken: 'good',
    clientData: 'tankIDName|\nprotocol|225',
  });
  await assert.rejects(
    checkToken(url, 'stale', '', { insecure: true }),
    (err: Error) => err.message === 'Your saved sign-in has expired & must be entered again.',
  );
});

test('login, items, enter_game, join, chat, move, punch, place, leave, disconnect', async () => {
  const bot = new Bot({ stepTimeoutMs: 5000 });
  const login = await bot.login({ host: '127.0.0.1', port: game.frontPort }, { token: 'good', meta: 'm3ta' });
  assert.deepEqual(login.engine, { host: '127.0.0.1', port: game.enginePort });
  assert.equal(login.name, 'Alice');
  assert.equal(login.refreshedItems, true);
  assert.deepEqual(bot.items, game.items);
  assert.deepEqual(
    { ...login.logon, settingsFields: Object.fromEntries(login.logon.settingsFields) },
    {
      itemsHash: login.itemsHash,
      cdnHost: 'ubistatic-a.akamaihd.net',
      cdnPath: '0098/123456/cache/',
      blockedApps: 'cc.cz.madkite.freedom org.aqua.gg',
      settings: 'proto=225|choosemusic=audio/mp3/about_theme.mp3|active_holiday=0|',
      settingsFields: { proto: '225', choosemusic: 'audio/mp3/about_theme.mp3', active_holiday: '0' },
      playerTributeHash: 0xdeadbeef,
    },
  );
  // What reached the front and the engine, byte for byte: the front text, the game-server text (its user, token,
  // UUIDToken and doorID taken from OnSendToServer), then refresh_item_data as type 2.
  const [front, gameLogin, refresh] = game.texts;
  assert.deepEqual(front, Buffer.from('\x02\x00\x00\x00protocol|225\nltoken|good\nplatformID|0,1,1\x00', 'latin1'));
  const fields = (gameLogin?.subarray(4, -1).toString() ?? '').split('\n');
  assert.equal(gameLogin?.readUInt32LE(0), 2);
  assert.deepEqual(
    fields.map((l) => l.slice(0, l.indexOf('|'))),
    GAME_LOGIN_KEYS,
  );
  assert.deepEqual(fields.slice(0, 6), [
    'tankIDName|Alice', // the name OnSendToServer carried
    'tankIDPass|',
    'requestedName|Bot',
    'f|1',
    'protocol|225',
    'game_version|5.51',
  ]);
  assert.deepEqual(fields.slice(-5), [
    'user|17',
    'token|4242',
    'UUIDToken|0123456789abcdef0123456789abcdef',
    'doorID|0',
    'aat|2',
  ]);
  assert.deepEqual(refresh, Buffer.from('\x02\x00\x00\x00action|refresh_item_data\x00', 'latin1'));

  const growId = bot.waitForCall('SetHasGrowID');
  const bux = bot.waitForCall('OnSetBux');
  const menu = await bot.enterGame();
  assert.match(menu, /^add_filter\|\nadd_heading\|.*\nadd_floater\|START/);
  assert.deepEqual((await growId).args, [1, 'Alice', '']);
  assert.deepEqual((await bux).args, [0, 0, 1]);

  const seen = new Set<string>();
  bot.on('call', (c: { name: string }) => seen.add(c.name));
  const pos = bot.waitForCall('OnSetPos');
  const world = await bot.join('START');
  assert.equal(world.name, 'START');
  assert.deepEqual([world.width, world.height, world.tiles.length], [3, 2, 6]);
  assert.deepEqual(world.tiles[1], {
    fg: 6,
    bg: 0,
    parent: 0,
    flags: 1,
    extra: { kind: 'door', label: 'EXIT', flags: 0 },
  });
  assert.deepEqual(world.tiles[3], { fg: 8, bg: 14, parent: 0, flags: 0 });
  assert.deepEqual(world.doors, [{ x: 1, y: 0, label: 'EXIT' }]);
  assert.deepEqual(world.dropped, { lastUid: 0, objects: [] });
  assert.deepEqual(world.weather, { base: 41, flag: 0, current: 41 });
  assert.deepEqual((await pos).args, [[32, 0]]);
  for (const name of ['OnSetCurrentWeather', 'OnSpawn', 'OnSetClothing', 'OnCountryState'])
    assert.ok(seen.has(name), name);
  assert.ok(world.netId > 0);
  assert.deepEqual(world.spawn, { x: 0, y: 32 });
  await until(() => bot.inventory ?? undefined, 5000, 'inventory');
  assert.deepEqual(bot.inventory?.items, [
    { id: 18, amount: 1, flags: 0 },
    { id: 32, amount: 1, flags: 0 },
  ]);

  const bubble = bot.waitForCall('OnTalkBubble');
  bot.say('hello there');
  const said = await bubble;
  assert.deepEqual(said.args, [world.netId, 'hello there', 0]);
  assert.equal(said.netId, world.netId);

  const damage = bot.waitFor((e) => e.kind === 'tank' && e.tank.type === 8);
  bot.move(64, 32);
  bot.punch(1, 1);
  bot.place(0, 0, 2);
  const hit = await damage;
  assert.ok(hit.kind === 'tank');
  assert.deepEqual([hit.tank.value, hit.tank.punchX, hit.tank.punchY], [6, 1, 1]);
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
  // World data without the two gaps and the trailer (the old engine's) is refused, naming where it broke.
  await assert.rejects(bot.join('LEGACY'), /world data: /);
  bot.quit();
  await until(() => (game.texts.some((t) => t.includes('action|quit\0')) ? true : undefined), 5000, 'the quit');
  await bot.disconnect();
  assert.equal(bot.enet?.state, 'closed');

  // Each action reached the engine with the real client's message type (the engine answers no other).
  const actions = game.texts
    .map((t) => [t.readUInt32LE(0), t.subarray(4, -1).toString()] as const)
    .filter(([, body]) => body.startsWith('action|'));
  assert.deepEqual(actions, [
    [2, 'action|refresh_item_data'],
    [2, 'action|enter_game'],
    [3, 'action|join_request\nname|START\ninvitedWorld|0'],
    [2, 'action|input\n|text|hello there'],
    [3, 'action|quit_to_exit'],
    [3, 'action|join_request\nname|LOCKED\ninvitedWorld|0'],
    [3, 'action|join_request\nname|LEGACY\ninvitedWorld|0'],
    [3, 'action|quit'],
  ]);
});

test('items.dat whose value field is not its uncompressed size is refused', async () => {
  game.setCorruptItemsValue(true);
  try {
    const bot = new Bot({ stepTimeoutMs: 5000 });
    await assert.rejects(
      bot.login({ host: '127.0.0.1', port: game.frontPort }, { token: 'good' }),
      /value field 0 is not the uncompressed size/,
    );
    await bot.disconnect();
  } finally {
    game.setCorruptItemsValue(false);
  }
});

test('a cached items.dat with the announced hash is not fetched again; loginFields replace or add login fields', async () => {
  const bot = new Bot({
    cachedItems: game.items,
    stepTimeoutMs: 5000,
    loginFields: { requestedName: 'Zed', canopyTest: '1' },
  });
  const from = game.texts.length;
  const login = await bot.login({ host: '127.0.0.1', port: game.frontPort }, { token: 'good' });
  assert.equal(login.refreshedItems, false);
  const sent = game.texts.slice(from).map((t) => t.subarray(4, -1).toString());
  const gameLogin = sent.find((t) => t.startsWith('tankIDName|'))?.split('\n') ?? [];
  assert.equal(gameLogin[2], 'requestedName|Zed', 'replaced in place');
  assert.equal(gameLogin.at(-1), 'canopyTest|1', 'added at the end');
  assert.ok(!sent.some((t) => t.startsWith('action|')), 'no refresh_item_data');
  await bot.disconnect();
});

test('an outdated protocol is refused with the game log line, which login rejects with', async () => {
  const bot = new Bot({ stepTimeoutMs: 5000, protocol: 190, gameVersion: '4.07' });
  await assert.rejects(bot.login({ host: '127.0.0.1', port: game.frontPort }, { token: 'good' }), /UPDATE REQUIRED/);
  const sent = game.texts.map((t) => t.subarray(4, -1).toString());
  assert.ok(sent.some((t) => t.startsWith('protocol|190\nltoken|good')));
  assert.ok(sent.some((t) => t.includes('\nprotocol|190\ngame_version|4.07\n')));
});

test('a refused token rejects login with the front message', async () => {
  const bot = new Bot({ stepTimeoutMs: 5000 });
  await assert.rejects(
    bot.login({ host: '127.0.0.1', port: game.frontPort }, { token: 'bad' }),
    /Your login token is not valid\./,
  );
});
