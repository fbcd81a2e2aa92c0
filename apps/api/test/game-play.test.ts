// End to end over the api (issue 13, "Tests"): two hosted servers on real engines, two headless game clients
// (packages/gtclient) doing what the game does: server_data.php and the login page's token call over HTTPS, the
// one ENet front port, each routed to its own server. Then play on server A and check the panel's side: the
// player count, the World Manager after a restart, the console history, and a Player Database ban.
// Runs once per database (CANOPY_TEST_DIALECTS), 8-9 s each (both: ~18 s).

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type ServerSocketMessage, serverSocketMessageSchema } from '@canopy/contract';
import { Bot, type BotEvent, loginValidateUrl, type ServerData, TankType } from '@canopy/gtclient';
import { WebSocket } from 'ws';
import { dialects } from './support/databases.ts';
import { ownerWithServer } from './support/factories.ts';
import { GATEWAY_ENV, gatewayPorts } from './support/gateway.ts';
import { startApi, type TestApi } from './support/harness.ts';
import { waitForStatus } from './support/servers.ts';

type Owner = Awaited<ReturnType<typeof ownerWithServer>>;

async function until<T>(check: () => Promise<T | undefined> | T | undefined, what: string, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

for (const dialect of dialects) {
  describe(`playing through the gateway on two hosted servers [${dialect}]`, () => {
    let api: TestApi;
    const names = [`PlayA${process.pid % 10000}${dialect[0]}`, `PlayB${process.pid % 10000}${dialect[0]}`];
    const owners: Owner[] = [];
    const gamePorts: number[] = [];
    const bots = [new Bot({ stepTimeoutMs: 15_000 }), new Bot({ stepTimeoutMs: 15_000 })] as const;
    const growIds = ['Player1a', 'Player2b'];
    let serverData: ServerData;
    let world = { width: 0, target: { x: 0, y: 0 } };

    before(async () => {
      api = await startApi(dialect, GATEWAY_ENV);
      for (const name of names) {
        const owner = await ownerWithServer(api, name);
        owners.push(owner);
        const start = await api.request('POST', `/users/${owner.user.id}/server/${name}/start`, {
          token: owner.sessionToken,
        });
        assert.equal(start.status, 202, JSON.stringify(start.body));
        const row = await api.ctx.db.get<{ game_port: number }>('SELECT game_port FROM servers WHERE name = ?', [name]);
        gamePorts.push(Number(row?.game_port));
      }
      for (const name of names) await waitForStatus(api, name, 'ONLINE');
    });
    after(async () => {
      for (const bot of bots) bot.enet?.disconnectNow();
      await api?.close();
    });

    const ownerOf = (i: number) => owners[i] as Owner;
    const call = (i: number, method: string, path: string) =>
      api.request(method, `/users/${ownerOf(i).user.id}/server${path}`, { token: ownerOf(i).sessionToken });
    const playersOnline = async (i: number) => {
      const feed = (await api.request('GET', '/status')).body.hostedServers as { name: string; players: number }[];
      return feed.find((s) => s.name === names[i])?.players;
    };

    it('asks server_data.php over HTTPS for the front, then logs each bot in through it to its own server', async () => {
      const { tlsPort, udpPort } = gatewayPorts(api);
      serverData = await bots[0].serverData(`https://127.0.0.1:${tlsPort}`, { insecure: true });
      assert.deepEqual([serverData.server, serverData.port], ['127.0.0.1', udpPort]);
      assert.ok(serverData.loginUrl, 'a login url');
      const validate = loginValidateUrl(serverData.loginUrl);
      const front = { host: serverData.server, port: serverData.port };
      const engines: number[] = [];
      for (const [i, bot] of bots.entries()) {
        const token = await bot.fetchToken(
          validate,
          { server: names[i] as string, growId: growIds[i] as string, password: `pw-${i}-leafy`, create: true },
          { insecure: true },
        );
        const login = await bot.login(front, { token, meta: serverData.meta });
        assert.equal(login.name, growIds[i]);
        engines.push(login.engine.port);
        assert.match(await bot.enterGame(), /default\|/);
      }
      assert.notEqual(gamePorts[0], gamePorts[1]);
      assert.deepEqual(engines, gamePorts, 'each bot went to its own server game port');
    });

    it("bot A joins a world, punches a dirt tile away and chats; the panel shows A's player and the chat line", async () => {
      const a = bots[0];
      const joined = await a.join('meadow');
      const door = joined.tiles.findIndex((t) => t.fg === 6);
      assert.ok(door >= 0, 'a main door');
      const doorX = door % joined.width;
      const doorY = Math.floor(door / joined.width);
      // Beside the bedrock under the door: dirt, within reach of the spawn. A new player holds nothing, so punch.
      const target = { x: doorX + 1, y: doorY + 1 };
      assert.equal(joined.tiles[target.y * joined.width + target.x]?.fg, 2, 'dirt to punch');
      world = { width: joined.width, target };
      const broke = (e: BotEvent) =>
        e.kind === 'tank' &&
        e.tank.type === TankType.tileChangeRequest &&
        e.tank.value === 18 &&
        e.tank.punchX === target.x &&
        e.tank.punchY === target.y;
      let done = false;
      for (let i = 0; i < 20 && !done; i++) {
        const seen = a.waitFor(broke, 400).then(
          () => true,
          () => false,
        );
        a.punch(target.x, target.y);
        done = await seen;
      }
      assert.ok(done, 'the tile broke and the engine told the world');

      const bubble = a.waitForCall('OnTalkBubble');
      a.say('hello from the meadow');
      assert.equal((await bubble).args[1], 'hello from the meadow');

      assert.equal(
        await until(async () => ((await playersOnline(0)) === 1 ? 1 : undefined), 'server A: 1 player online'),
        1,
      );

      // The console history the panel's console shows (WebSocket, console_subscribe) has the chat line.
      const owner = ownerOf(0);
      const ws = new WebSocket(
        `${api.url.replace('http', 'ws')}/ws/${owner.user.id}?token=${encodeURIComponent(owner.sessionToken)}`,
      );
      const messages: ServerSocketMessage[] = [];
      ws.on('message', (data) => messages.push(serverSocketMessageSchema.parse(JSON.parse(String(data)))));
      await new Promise<void>((resolve, reject) => {
        ws.on('open', () => resolve());
        ws.on('error', reject);
      });
      try {
        ws.send(JSON.stringify({ type: 'console_subscribe' }));
        const history = await until(() => messages.find((m) => m.type === 'console_history'), 'the console history');
        assert.ok(history.type === 'console_history');
        assert.ok(
          history.payload.lines.some((l) => /\[MEADOW\] Player1a: hello from the meadow$/.test(l)),
          JSON.stringify(history.payload.lines.slice(-10)),
        );
      } finally {
        ws.close();
      }
    });

    it('a Player Database ban through the api disconnects bot A', async () => {
      const a = bots[0];
      const gone = a.waitFor((e) => e.kind === 'disconnect', 15_000).then(() => a.lastConsole);
      const ban = await call(0, 'DELETE', `/players/${growIds[0]}`);
      assert.equal(ban.status, 200, JSON.stringify(ban.body));
      assert.match(await gone, /^You have been disconnected/);
      await until(async () => ((await playersOnline(0)) === 0 ? 0 : undefined), 'server A: nobody online');
      const player = await call(0, 'GET', `/players/${growIds[0]}`);
      assert.equal(player.status, 200);
    });

    it('shows the punched tile in the World Manager after server A restarts', async () => {
      const stop = await call(0, 'POST', `/${names[0]}/stop`);
      assert.equal(stop.status, 202, JSON.stringify(stop.body));
      await waitForStatus(api, names[0] as string, 'OFFLINE');
      const start = await call(0, 'POST', `/${names[0]}/start`);
      assert.equal(start.status, 202, JSON.stringify(start.body));
      await waitForStatus(api, names[0] as string, 'ONLINE');
      const res = await call(0, 'GET', '/worlds/MEADOW');
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const { x, y } = world.target;
      assert.equal(res.body.blocks[y * world.width + x].fg, 0, 'the dirt is gone');
      assert.equal(res.body.blocks[y * world.width + x].bg, 14, 'the cave background stays');
    });
  });
}
