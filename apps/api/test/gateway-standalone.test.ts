// The gateway run apart (issue 22 part 4, ADR 0039): the panel with CANOPY_GATEWAY=off and `npm run gateway`'s
// entry (apps/api/src/gateway/main.ts) as a real child process on the same configuration and database. A headless
// client goes server_data.php → the login page → the ENet front → OnSendToServer → the hosted server started
// through the api: the gateway knows it is ONLINE and where its engine answers only from what the panel recorded.
// SIGTERM ends the gateway cleanly. (That `npm start` still embeds the gateway is game-play.test.ts and the
// gateway-*.test.ts suites, which start the api with CANOPY_GATEWAY=on.)

import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { Bot, loginValidateUrl, tokenForm } from '@canopy/gtclient';
import { dialects } from './support/databases.ts';
import { ownerWithServer } from './support/factories.ts';
import { GATEWAY_ENV } from './support/gateway.ts';
import { startApi, type TestApi } from './support/harness.ts';
import { freeTcpPort, LOGIN_NAME, loginCertificate, postLoginPage, tokenOf } from './support/login-host.ts';
import { waitForStatus } from './support/servers.ts';
import { untilValue } from './support/until.ts';

const root = new URL('../../../', import.meta.url).pathname;

for (const dialect of dialects) {
  describe(`the gateway as its own process beside a panel without one [${dialect}]`, () => {
    let api: TestApi;
    let login: Awaited<ReturnType<typeof loginCertificate>>;
    let gateway: ChildProcess | undefined;
    let output = '';
    let ports = { tls: 0, udp: 0 };
    const name = `Apart${process.pid % 10000}${dialect[0]}`;
    let gamePort = 0;
    let owner: Awaited<ReturnType<typeof ownerWithServer>>;
    const bot = new Bot({ stepTimeoutMs: 15_000 });

    before(async () => {
      login = await loginCertificate();
      const loginPort = await freeTcpPort();
      const env = {
        ...GATEWAY_ENV,
        CANOPY_GATEWAY_TLS_PORT: String(loginPort),
        CANOPY_LOGIN_HOST: `${LOGIN_NAME}:${loginPort}`,
        CANOPY_LOGIN_TLS_CERT: login.certPath,
        CANOPY_LOGIN_TLS_KEY: login.keyPath,
      };
      api = await startApi(dialect, { ...env, CANOPY_GATEWAY: 'off' });
      assert.equal(api.ctx.gateway, undefined, 'the panel runs no gateway');
      gateway = spawn(process.execPath, ['apps/api/src/gateway/main.ts'], {
        cwd: root,
        env: {
          ...process.env,
          ...env,
          NODE_ENV: 'test',
          LOG_LEVEL: 'warn',
          HOST: '127.0.0.1',
          CANOPY_DATA_DIR: api.ctx.config.dataDir,
          DATABASE_URL: api.ctx.config.databaseUrl ?? '',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      for (const stream of [gateway.stdout, gateway.stderr])
        stream?.on('data', (d) => {
          output += d;
        });
      ports = await new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no gateway start line:\n${output}`)), 30_000);
        const check = () => {
          const m = /https on port (\d+) .*udp port (\d+)/.exec(output);
          if (m) {
            clearTimeout(timer);
            resolve({ tls: Number(m[1]), udp: Number(m[2]) });
          }
        };
        gateway?.stdout?.on('data', check);
        gateway?.on('exit', (code) => reject(new Error(`the gateway exited (${code}):\n${output}`)));
      });

      owner = await ownerWithServer(api, name);
      const start = await api.request('POST', `/users/${owner.user.id}/server/${name}/start`, {
        token: owner.sessionToken,
      });
      assert.equal(start.status, 202, JSON.stringify(start.body));
      await waitForStatus(api, name, 'ONLINE');
      const row = await api.ctx.db.get<{ game_port: number }>('SELECT game_port FROM servers WHERE name = ?', [name]);
      gamePort = Number(row?.game_port);
    });
    after(async () => {
      bot.enet?.disconnectNow();
      if (gateway && gateway.exitCode === null) gateway.kill('SIGKILL');
      await api?.close();
      if (login) rmSync(login.dir, { recursive: true, force: true });
    });

    it('a player reaches the hosted server through the standalone gateway', async () => {
      assert.equal(ports.tls > 0 && ports.udp > 0, true);
      const serverData = await bot.serverData(`https://127.0.0.1:${ports.tls}`, { insecure: true });
      assert.deepEqual([serverData.server, serverData.port], ['127.0.0.1', ports.udp]);
      const validate = loginValidateUrl(serverData.loginUrl as string);
      // The page lists the server as online: read from what the panel's runtime recorded.
      const page = await postLoginPage(validate.replace('/growid/login/validate', '/login/dashboard'), {}, login.cert);
      assert.match(page.text, new RegExp(name));
      const form = tokenForm({ server: name, growId: 'Wanderer', password: 'pw-apart-leafy' });
      const token = tokenOf(await postLoginPage(validate, { ...form, create: '1' }, login.cert));
      const result = await bot.login(
        { host: serverData.server, port: serverData.port },
        { token, meta: serverData.meta },
      );
      assert.equal(result.engine.port, gamePort, 'OnSendToServer named the server game port');
      assert.equal(result.name, 'Wanderer');
    });

    it('a server stopped through the api is refused by the standalone gateway', async () => {
      const stop = await api.request('POST', `/users/${owner.user.id}/server/${name}/stop`, {
        token: owner.sessionToken,
      });
      assert.equal(stop.status, 202, JSON.stringify(stop.body));
      await waitForStatus(api, name, 'OFFLINE');
      // The panel writes the status after its event: wait for the row.
      await untilValue(async () => {
        const row = await api.ctx.db.get<{ s: string }>('SELECT live_status AS s FROM servers WHERE name = ?', [name]);
        return row?.s === 'OFFLINE' || undefined;
      }, 'live_status OFFLINE');
      const validate = `https://${LOGIN_NAME}:${ports.tls}/player/growid/login/validate`;
      const form = tokenForm({ server: name, growId: 'Wanderer', password: 'pw-apart-leafy' });
      const answer = await postLoginPage(validate, form, login.cert);
      assert.match(answer.contentType, /^text\/html/);
      assert.match(answer.text, /is offline right now/);
    });

    it('SIGTERM ends the standalone gateway cleanly', async () => {
      const exited = new Promise<number | null>((resolve) => gateway?.on('exit', (code) => resolve(code)));
      gateway?.kill('SIGTERM');
      assert.equal(await exited, 0, output);
    });
  });
}
