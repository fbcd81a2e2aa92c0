// Whole-object saves of the World Manager and the Player Database are conditional on the version they read
// (issue 21, item 16; ADR 0035): a block a player places in the game between the panel's read and its save,
// and the item it costs them, are not undone by the save. Real api, real engine, a headless game client
// (packages/gtclient) through the gateway's front; runs once per database (CANOPY_TEST_DIALECTS).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { etagOf, versionedWriteMessages as m } from '@canopy/contract';
import { Bot } from '@canopy/gtclient';
import { dialects } from './support/databases.ts';
import { ownerWithServer } from './support/factories.ts';
import { GATEWAY_ENV, gatewayLogin, gatewayPorts } from './support/gateway.ts';
import { startApi, type TestApi } from './support/harness.ts';
import { waitForStatus } from './support/servers.ts';
import { untilValue } from './support/until.ts';

type Owner = Awaited<ReturnType<typeof ownerWithServer>>;
// biome-ignore lint/suspicious/noExplicitAny: tests read JSON bodies loosely and assert on them
type Json = any;

const WIDTH = 20;
const HEIGHT = 10;
const DOOR = { x: 5, y: 5 };
const DIRT = 2;
const at = (x: number, y: number) => y * WIDTH + x;
/** Beside the door, in reach of the spawn, and empty: where the player places dirt. */
const SPOT = { x: DOOR.x + 1, y: DOOR.y - 1 };

/** A small open world with a main door on bedrock. */
function doorWorld(): Json {
  const blocks = Array.from({ length: WIDTH * HEIGHT }, () => ({ fg: 0, bg: 0, o: 0, l: 0, fl: 0, if_c: 0 }));
  Object.assign(blocks[at(DOOR.x, DOOR.y)] as object, { fg: 6 });
  Object.assign(blocks[at(DOOR.x, DOOR.y + 1)] as object, { fg: 8 });
  return {
    owner: '',
    entry_level: 1,
    ct: 0,
    d_weather: 0,
    music_bpm: 100,
    w_s: 0,
    r: 255,
    g: 128,
    b: 64,
    weather: 0,
    admins: [],
    width: WIDTH,
    height: HEIGHT,
    blocks,
  };
}

for (const dialect of dialects) {
  describe(`saves never undo what the game changed since the read [${dialect}]`, () => {
    let api: TestApi;
    let owner: Owner;
    const server = `Cas${process.pid % 10000}${dialect[0]}`;
    const world = `CAS${process.pid % 10000}`;
    const growId = `Caser${process.pid % 10000}`;
    const bot = new Bot({ stepTimeoutMs: 15_000 });

    const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
      api.request(method, `/users/${owner.user.id}/server${path}`, { token: owner.sessionToken, body, headers });
    /** A GET with its ETag header (the harness answers status and body only). */
    const read = async (path: string) => {
      const res = await fetch(`${api.url}/users/${owner.user.id}/server${path}`, {
        headers: { authorization: `Bearer ${owner.sessionToken}` },
      });
      assert.equal(res.status, 200);
      return { etag: res.headers.get('etag'), body: (await res.json()) as Json };
    };
    const dirtOf = (player: Json) => (player.inventory as [number, number][]).find(([id]) => id === DIRT)?.[1] ?? 0;

    before(async () => {
      api = await startApi(dialect, GATEWAY_ENV);
      owner = await ownerWithServer(api, server);
      const start = await call('POST', `/${server}/start`);
      assert.equal(start.status, 202, JSON.stringify(start.body));
      await waitForStatus(api, server, 'ONLINE');
      // A new world needs no version: there is nothing to overwrite.
      assert.equal((await call('PUT', `/worlds/${world}`, doorWorld())).status, 200);
      const login = await gatewayLogin(api, { server, growId, password: 'pw-caser-leafy', create: '1' });
      assert.equal(login.body?.status, 'success', JSON.stringify(login));
      // The Player Database gives the new player dirt to place, on the version it read.
      const player = (await call('GET', `/players/${growId}`)).body;
      const given = await call('PUT', `/players/${growId}`, { ...player, inventory: [[DIRT, 10]] });
      assert.equal(given.status, 200, JSON.stringify(given.body));
      await bot.login({ host: '127.0.0.1', port: gatewayPorts(api).udpPort }, { token: login.body.token });
      await bot.enterGame();
      await bot.join(world);
    });
    after(async () => {
      bot.enet?.disconnectNow();
      await api?.close();
    });

    it('a block placed in the game after the read: the world and player saves answer 409 and keep it', async () => {
      const worldRead = await read(`/worlds/${world}`);
      const playerRead = await read(`/players/${growId}`);
      assert.equal(worldRead.etag, etagOf(worldRead.body.version), 'GET answers the version as the ETag');
      assert.equal(playerRead.etag, etagOf(playerRead.body.version));
      assert.equal(dirtOf(playerRead.body), 10);

      bot.place(SPOT.x, SPOT.y, DIRT);
      await untilValue(async () => {
        const now = (await call('GET', `/worlds/${world}`)).body;
        return now.blocks[at(SPOT.x, SPOT.y)].fg === DIRT ? true : undefined;
      }, 'the placed block');

      // The World Manager saves the copy it read, with an unrelated change: refused, nothing written.
      const staleWorld = await call('PUT', `/worlds/${world}`, { ...worldRead.body, weather: 2 });
      assert.equal(staleWorld.status, 409);
      assert.deepEqual(staleWorld.body, { error: m.worldChanged, code: 'version_conflict' });
      // The Player Database likewise: the dirt the block cost is not given back.
      const stalePlayer = await call('PUT', `/players/${growId}`, { ...playerRead.body, level: 7 });
      assert.equal(stalePlayer.status, 409);
      assert.deepEqual(stalePlayer.body, { error: m.playerChanged, code: 'version_conflict' });
      // Sent as If-Match instead of in the body: the same.
      const { version: _w, ...worldBody } = worldRead.body;
      const viaHeader = await call(`PUT`, `/worlds/${world}`, worldBody, { 'if-match': worldRead.etag ?? '' });
      assert.equal(viaHeader.status, 409);

      const worldNow = await read(`/worlds/${world}`);
      const playerNow = await read(`/players/${growId}`);
      assert.equal(worldNow.body.blocks[at(SPOT.x, SPOT.y)].fg, DIRT, 'the placed block stays');
      assert.equal(worldNow.body.weather, 0);
      assert.equal(dirtOf(playerNow.body), 9, 'the placement took one dirt, and it stays taken');
      assert.equal(playerNow.body.level, playerRead.body.level);

      // Made again on the latest version, the save goes through and answers the new version.
      const saved = await call('PUT', `/worlds/${world}`, worldBody, { 'if-match': worldNow.etag ?? '' });
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      assert.ok(saved.body.version > worldNow.body.version);
      const savedPlayer = await call('PUT', `/players/${growId}`, { ...playerNow.body, level: 7 });
      assert.equal(savedPlayer.status, 200, JSON.stringify(savedPlayer.body));
      assert.equal(savedPlayer.body.player.level, 7);
      assert.equal(dirtOf(savedPlayer.body.player), 9);
    });

    it('a save that names no version is 428, a malformed If-Match 400; neither changes anything', async () => {
      const before = (await call('GET', `/worlds/${world}`)).body;
      const { version: _v, ...unversioned } = before;
      const none = await call('PUT', `/worlds/${world}`, { ...unversioned, weather: 12 });
      assert.equal(none.status, 428);
      assert.equal(none.body.code, 'version_required');
      assert.equal(none.body.error, m.versionRequired('a world'));
      const bad = await call('PUT', `/worlds/${world}`, before, { 'if-match': '*' });
      assert.deepEqual([bad.status, bad.body.error], [400, m.badIfMatch]);
      const player = (await call('GET', `/players/${growId}`)).body;
      const { version: _p, ...unversionedPlayer } = player;
      assert.equal((await call('PUT', `/players/${growId}`, { ...unversionedPlayer, level: 9 })).status, 428);
      assert.deepEqual((await call('GET', `/worlds/${world}`)).body, before);
      assert.deepEqual((await call('GET', `/players/${growId}`)).body, player);
    });

    it('two saves of the same version at once: exactly one wins', async () => {
      const w = (await call('GET', `/worlds/${world}`)).body;
      const worlds = await Promise.all([2, 10].map((weather) => call('PUT', `/worlds/${world}`, { ...w, weather })));
      assert.deepEqual(worlds.map((r) => r.status).sort(), [200, 409]);
      const won = worlds.findIndex((r) => r.status === 200);
      assert.equal((await call('GET', `/worlds/${world}`)).body.weather, [2, 10][won]);

      const p = (await call('GET', `/players/${growId}`)).body;
      const players = await Promise.all([20, 30].map((level) => call('PUT', `/players/${growId}`, { ...p, level })));
      assert.deepEqual(players.map((r) => r.status).sort(), [200, 409]);
      const first = players.findIndex((r) => r.status === 200);
      assert.equal((await call('GET', `/players/${growId}`)).body.level, [20, 30][first]);
    });
  });
}
