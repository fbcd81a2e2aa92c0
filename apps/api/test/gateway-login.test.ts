import assert from 'node:assert/strict';
import { beforeEach, it } from 'node:test';
import { defaultSettings, gatewayLoginResponseSchema, gatewayMessages } from '@canopy/contract';
import { gameServerKey, readGameToken } from '@canopy/contract/game-token';
import { loadGatewayKey } from '../src/gateway/keys.ts';
import { settingsRepo } from '../src/settings/settings.repo.ts';
import { ownerWithServer } from './support/factories.ts';
import { GATEWAY_ENV, gatewayLogin, gatewayRequest, pageError } from './support/gateway.ts';
import { describeEachDatabase, type TestApi } from './support/harness.ts';
import { waitForStatus } from './support/servers.ts';

async function serverRow(api: TestApi, name: string) {
  const row = await api.ctx.db.get<{ id: string }>('SELECT id FROM servers WHERE name_key = ?', [name.toLowerCase()]);
  if (!row) throw new Error(`no server ${name}`);
  const full = await api.ctx.db.get<import('../src/servers/servers.repo.ts').ServerRow>(
    'SELECT id, owner_id, name, game_port, control_secret, desired_state, created_at, last_crash_at FROM servers WHERE id = ?',
    [row.id],
  );
  return api.ctx.servers.spec(full as import('../src/servers/servers.repo.ts').ServerRow);
}

/**
 * A login call answered with an error: the login page again (200, HTML, its CSP, no script) with the error
 * shown; answers its code (x-canopy-error) and the text shown.
 */
async function refused(api: TestApi, fields: Record<string, string>) {
  const res = await gatewayLogin(api, fields);
  assert.equal(res.body, undefined, `a refusal is not JSON: ${JSON.stringify(res.body)}`);
  assert.equal(res.status, 200);
  assert.match(String(res.headers['content-type']), /^text\/html/);
  assert.match(String(res.headers['content-security-policy']), /default-src 'none'/);
  assert.doesNotMatch(res.html ?? '', /<script/);
  assert.match(res.html ?? '', /<form method="post" action="\/player\/growid\/login\/validate"/);
  return { code: res.code, message: pageError(res.html) };
}

describeEachDatabase(
  'gateway login page: the token call',
  (api) => {
    const online = `GwOn${process.pid % 10000}`;
    const offline = `GwOff${process.pid % 10000}`;
    const closed = `GwShut${process.pid % 10000}`;

    it('sets up an online server, an offline one and one whose owner gets banned', async () => {
      const owner = await ownerWithServer(api(), online);
      await ownerWithServer(api(), offline);
      const banned = await ownerWithServer(api(), closed);
      await api().ctx.db.run('UPDATE users SET is_banned = 1, ban_expires = NULL WHERE id = ?', [banned.user.id]);
      const start = await api().request('POST', `/users/${owner.user.id}/server/${online}/start`, {
        token: owner.sessionToken,
      });
      assert.equal(start.status, 202, JSON.stringify(start.body));
      await waitForStatus(api(), online, 'ONLINE');
    });

    // Every test starts a fresh rate-limit window, so that the calls of one do not count against the next.
    beforeEach(() => {
      api().clock.now += 61_000;
    });

    it('creates a GrowID on the server and answers a token that the gateway and only that engine can read', async () => {
      const res = await gatewayLogin(api(), {
        server: online.toLowerCase(),
        growId: 'Sprout1',
        password: 'leafy-pw',
        create: '1',
      });
      assert.equal(res.status, 200);
      const body = gatewayLoginResponseSchema.parse(res.body);
      assert.ok(body.status === 'success');
      assert.deepEqual(
        { ...body, token: '' },
        {
          status: 'success',
          message: gatewayMessages.created('Sprout1', online),
          token: '',
          url: '',
          accountType: 'growtopia',
        },
      );
      const spec = await serverRow(api(), online);
      const now = api().clock.now;
      const ticket = readGameToken(body.token, 'gateway', loadGatewayKey(api().ctx.config.dataDir), now);
      assert.ok(ticket && ticket !== 'expired');
      assert.deepEqual(
        { port: ticket.port, server: ticket.server, growId: ticket.growId },
        {
          port: spec.gamePort,
          server: online,
          growId: 'Sprout1',
        },
      );
      assert.ok(readGameToken(body.token, 'server', gameServerKey(spec.secret), now));
      const other = await serverRow(api(), offline);
      assert.equal(readGameToken(body.token, 'server', gameServerKey(other.secret), now), undefined);
    });

    it('signs an existing GrowID in, by form post or JSON, in any case of the name', async () => {
      const form = await gatewayLogin(api(), { server: online, growId: 'sprout1', password: 'leafy-pw' });
      assert.equal(form.status, 200);
      assert.equal(form.body.message, gatewayMessages.loggedIn('Sprout1', online));
      const json = await gatewayLogin(api(), { server: online, growId: 'Sprout1', password: 'leafy-pw' }, 'json');
      assert.equal(json.body.status, 'success');
      assert.notEqual(json.body.token, form.body.token, 'each login gets its own token');
    });

    it('says which: wrong password, unknown GrowID (the same text), a taken name on create', async () => {
      assert.deepEqual(await refused(api(), { server: online, growId: 'Sprout1', password: 'nope' }), {
        code: 'wrong_password',
        message: gatewayMessages.wrongPassword,
      });
      assert.deepEqual(await refused(api(), { server: online, growId: 'Nobody9', password: 'leafy-pw' }), {
        code: 'wrong_password',
        message: gatewayMessages.wrongPassword,
      });
      assert.deepEqual(await refused(api(), { server: online, growId: 'SPROUT1', password: 'x', create: '1' }), {
        code: 'name_taken',
        message: gatewayMessages.nameTaken('SPROUT1', online),
      });
    });

    it('says which: invalid GrowID, password or server name', async () => {
      const bad = (fields: Record<string, string>) => refused(api(), fields);
      assert.deepEqual(await bad({ server: online, growId: 'no spaces', password: 'pw' }), {
        code: 'invalid',
        message: gatewayMessages.growIdInvalid,
      });
      assert.deepEqual(await bad({ server: online, growId: 'Fine1', password: '' }), {
        code: 'invalid',
        message: gatewayMessages.passwordInvalid,
      });
      assert.deepEqual(await bad({ server: 'a/b', growId: 'Fine1', password: 'pw' }), {
        code: 'invalid',
        message: gatewayMessages.serverNameInvalid,
      });
    });

    it('says which: unknown server, offline server, owner banned, GrowID banned on that server', async () => {
      assert.equal(
        (await refused(api(), { server: 'NoSuchOne', growId: 'Sprout1', password: 'pw' })).message,
        gatewayMessages.unknownServer('NoSuchOne'),
      );
      assert.deepEqual(await refused(api(), { server: offline, growId: 'Sprout1', password: 'pw' }), {
        code: 'server_offline',
        message: gatewayMessages.serverOffline(offline),
      });
      assert.deepEqual(await refused(api(), { server: closed, growId: 'Sprout1', password: 'pw' }), {
        code: 'owner_banned',
        message: gatewayMessages.ownerBanned(closed),
      });
      const spec = await serverRow(api(), online);
      await gatewayLogin(api(), { server: online, growId: 'Weed666', password: 'pw-weed', create: '1' });
      const control = api().ctx.servers.runtime.control(spec.id);
      assert.ok(control);
      await control.request('DELETE', '/players/Weed666');
      assert.deepEqual(await refused(api(), { server: online, growId: 'Weed666', password: 'pw-weed' }), {
        code: 'growid_banned',
        message: gatewayMessages.growIdBanned('Weed666', online),
      });
    });

    it('refuses every server during platform maintenance', async () => {
      await settingsRepo.save(api().ctx.db, { ...defaultSettings, maintenance: true });
      try {
        assert.deepEqual(await refused(api(), { server: online, growId: 'Sprout1', password: 'leafy-pw' }), {
          code: 'maintenance',
          message: gatewayMessages.maintenance,
        });
      } finally {
        await settingsRepo.save(api().ctx.db, defaultSettings);
      }
      assert.equal(
        (await gatewayLogin(api(), { server: online, growId: 'Sprout1', password: 'leafy-pw' })).body?.status,
        'success',
      );
    });

    it("serves the login page (GET and the web view's POST): self-contained, CSP, online servers listed", async () => {
      for (const method of ['GET', 'POST']) {
        const res = await gatewayRequest(api(), method, '/player/login/dashboard', {
          body: method === 'POST' ? 'tankIDName=&requestedName=Sprout' : undefined,
          headers: method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {},
        });
        assert.equal(res.status, 200);
        assert.match(String(res.headers['content-type']), /^text\/html/);
        const csp = String(res.headers['content-security-policy']);
        assert.match(csp, /default-src 'none'/);
        assert.match(csp, /form-action 'self'/);
        assert.match(res.text, /<form method="post" action="\/player\/growid\/login\/validate"/);
        assert.match(res.text, /name="server"[\s\S]*name="growId"[\s\S]*name="password"[\s\S]*name="create" value="1"/);
        assert.match(res.text, /name="viewport"/);
        assert.ok(res.text.includes(`<option value="${online}">`), 'the online server is offered');
        assert.ok(!res.text.includes(offline), 'an offline server is not listed');
        assert.doesNotMatch(res.text, /<script|src="http|href="http/, 'nothing loads from elsewhere');
      }
    });

    it('limits attempts per server and GrowID, then per IP', async () => {
      // An unknown server: the gateway's own limit answers, not the engine's.
      const attempt = (growId: string) => refused(api(), { server: 'LimitMe', growId, password: 'pw' });
      for (let i = 0; i < 10; i++) assert.equal((await attempt('Target9')).code, 'unknown_server');
      assert.deepEqual(await attempt('TARGET9'), { code: 'rate_limited', message: gatewayMessages.tooManyAttempts });
      assert.equal((await attempt('Other9')).code, 'unknown_server', 'another GrowID is counted apart');
      let last: string | undefined;
      for (let i = 0; i < 40 && last !== 'rate_limited'; i++) last = (await attempt(`Ip${i}x`)).code;
      assert.equal(last, 'rate_limited', 'one IP runs out of attempts whatever the names');
      api().clock.now += 61_000;
      assert.equal((await attempt('Fresh9')).code, 'unknown_server');
    });
  },
  GATEWAY_ENV,
);
