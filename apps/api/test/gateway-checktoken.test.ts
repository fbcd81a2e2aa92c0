import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { beforeEach, it } from 'node:test';
import { gatewayLoginResponseSchema, gatewayMessages } from '@canopy/contract';
import {
  GAME_TOKEN_REFRESH_WINDOW_MS,
  GAME_TOKEN_TTL_MS,
  gameServerKey,
  readGameToken,
  signGameToken,
} from '@canopy/contract/game-token';
import { fetchToken, loginValidateUrl } from '@canopy/gtclient';
import { loadGatewayKey } from '../src/gateway/keys.ts';
import type { ServerRow } from '../src/servers/servers.repo.ts';
import { ownerWithServer } from './support/factories.ts';
import { GATEWAY_ENV, gatewayCheckToken, gatewayLogin, gatewayPorts, pageError } from './support/gateway.ts';
import { describeEachDatabase, type TestApi } from './support/harness.ts';
import { waitForStatus } from './support/servers.ts';

async function serverSpec(api: TestApi, name: string) {
  const row = await api.ctx.db.get<ServerRow>(
    'SELECT id, owner_id, name, game_port, control_secret, desired_state, created_at, last_crash_at FROM servers WHERE name_key = ?',
    [name.toLowerCase()],
  );
  if (!row) throw new Error(`no server ${name}`);
  return api.ctx.servers.spec(row);
}

/** A token as the gateway would have issued it at `issuedAt` (so a test needs no clock jumps of days). */
async function tokenIssuedAt(api: TestApi, server: string, growId: string, issuedAt: number, gatewayKey?: Buffer) {
  const spec = await serverSpec(api, server);
  return signGameToken(
    { port: spec.gamePort, server: spec.name, growId },
    { gateway: gatewayKey ?? loadGatewayKey(api.ctx.config.dataDir), server: gameServerKey(spec.secret) },
    issuedAt,
  );
}

/** A refused checktoken: the login page again (200, HTML, no script) with the error; answers code and text. */
async function refusedRefresh(api: TestApi, token: string) {
  const res = await gatewayCheckToken(api, token);
  assert.equal(res.body, undefined, `a refusal is not JSON: ${JSON.stringify(res.body)}`);
  assert.equal(res.status, 200);
  assert.match(String(res.headers['content-type']), /^text\/html/);
  assert.match(String(res.headers['content-security-policy']), /default-src 'none'/);
  assert.doesNotMatch(res.html ?? '', /<script/);
  assert.match(res.html ?? '', /action="\/player\/growid\/login\/validate"/, 'the player can sign in again');
  return { code: res.code, message: pageError(res.html), html: res.html ?? '' };
}

describeEachDatabase(
  'gateway checktoken: a returning player’s saved sign-in',
  (api) => {
    const online = `CtOn${process.pid % 10000}`;
    const offline = `CtOff${process.pid % 10000}`;
    let firstToken = '';

    it('sets up an online server with a GrowID, and an offline one', async () => {
      const owner = await ownerWithServer(api(), online);
      await ownerWithServer(api(), offline);
      const start = await api().request('POST', `/users/${owner.user.id}/server/${online}/start`, {
        token: owner.sessionToken,
      });
      assert.equal(start.status, 202, JSON.stringify(start.body));
      await waitForStatus(api(), online, 'ONLINE');
      const login = await gatewayLogin(api(), { server: online, growId: 'Sapling1', password: 'pw-sap', create: '1' });
      assert.equal(login.body?.status, 'success', login.html);
      firstToken = login.body.token;
    });

    beforeEach(() => {
      api().clock.now += 61_000;
    });

    it('answers a fresh token in the JSON of validate for the last token, live or expired within 30 days', async () => {
      const now = api().clock.now;
      const spec = await serverSpec(api(), online);
      const gatewayKey = loadGatewayKey(api().ctx.config.dataDir);
      const saved = [
        firstToken,
        await tokenIssuedAt(api(), online, 'Sapling1', now - 10 * 86_400_000),
        await tokenIssuedAt(api(), online, 'Sapling1', now - GAME_TOKEN_TTL_MS - GAME_TOKEN_REFRESH_WINDOW_MS + 60_000),
      ];
      for (const token of saved) {
        const res = await gatewayCheckToken(api(), token);
        assert.equal(res.status, 200);
        const body = gatewayLoginResponseSchema.parse(res.body);
        assert.ok(body.status === 'success');
        assert.deepEqual(
          { ...body, token: '' },
          { status: 'success', message: 'Account Validated.', token: '', url: '', accountType: 'growtopia' },
        );
        assert.notEqual(body.token, token);
        const ticket = readGameToken(body.token, 'gateway', gatewayKey, now);
        assert.ok(ticket && ticket !== 'expired', 'the new token is live');
        assert.deepEqual(
          { port: ticket.port, server: ticket.server, growId: ticket.growId },
          { port: spec.gamePort, server: online, growId: 'Sapling1' },
        );
        assert.ok(readGameToken(body.token, 'server', gameServerKey(spec.secret), now), 'and its engine reads it');
      }
    });

    it('refuses a token expired beyond the window, with the page asking to sign in again', async () => {
      const now = api().clock.now;
      const old = await tokenIssuedAt(
        api(),
        online,
        'Sapling1',
        now - GAME_TOKEN_TTL_MS - GAME_TOKEN_REFRESH_WINDOW_MS - 60_000,
      );
      const res = await refusedRefresh(api(), old);
      assert.deepEqual(
        { code: res.code, message: res.message },
        {
          code: 'token_expired',
          message: gatewayMessages.savedSignInExpired,
        },
      );
    });

    it('refuses forged and malformed tokens, and a token of another server incarnation', async () => {
      const now = api().clock.now;
      const forged = await tokenIssuedAt(api(), online, 'Sapling1', now, randomBytes(32));
      const [payload, g, s] = firstToken.split('.') as [string, string, string];
      const ticket = JSON.parse(Buffer.from(payload, 'base64url').toString());
      const altered = `${Buffer.from(JSON.stringify({ ...ticket, growId: 'Admin1' })).toString('base64url')}.${g}.${s}`;
      // The gateway MAC is right, the server MAC is not this server's (as after a delete and re-create).
      const spec = await serverSpec(api(), online);
      const otherIncarnation = signGameToken(
        { port: spec.gamePort, server: online, growId: 'Sapling1' },
        { gateway: loadGatewayKey(api().ctx.config.dataDir), server: gameServerKey('an older control secret') },
        now,
      );
      for (const token of [forged, altered, otherIncarnation, 'garbage', `${firstToken}.x`, 'x'.repeat(600)]) {
        const res = await refusedRefresh(api(), token);
        assert.deepEqual(
          { code: res.code, message: res.message },
          {
            code: 'token_invalid',
            message: gatewayMessages.savedSignInInvalid,
          },
        );
      }
      const empty = await gatewayLogin(api(), { clientData: 'x' }, 'form', '/player/growid/checktoken');
      assert.equal(empty.code, 'token_invalid');
    });

    it('refuses a banned GrowID, a GrowID gone from the server, and an offline server', async () => {
      const now = api().clock.now;
      await gatewayLogin(api(), { server: online, growId: 'Thorn1', password: 'pw-thorn', create: '1' });
      const spec = await serverSpec(api(), online);
      const control = api().ctx.servers.runtime.control(spec.id);
      assert.ok(control);
      await control.request('DELETE', '/players/Thorn1');
      const banned = await refusedRefresh(api(), await tokenIssuedAt(api(), online, 'Thorn1', now));
      assert.deepEqual(
        { code: banned.code, message: banned.message },
        {
          code: 'growid_banned',
          message: gatewayMessages.growIdBanned('Thorn1', online),
        },
      );
      const gone = await refusedRefresh(api(), await tokenIssuedAt(api(), online, 'Ghost1', now));
      assert.deepEqual(
        { code: gone.code, message: gone.message },
        {
          code: 'growid_gone',
          message: gatewayMessages.growIdGone('Ghost1', online),
        },
      );
      const stopped = await refusedRefresh(api(), await tokenIssuedAt(api(), offline, 'Sapling1', now));
      assert.deepEqual(
        { code: stopped.code, message: stopped.message },
        {
          code: 'server_offline',
          message: gatewayMessages.serverOffline(offline),
        },
      );
    });

    it('shows every error escaped: a name from a signed token, and the names typed into the form', async () => {
      const hostile = '<img src=x onerror=alert(1)>"&\'';
      const res = await refusedRefresh(api(), await tokenIssuedAt(api(), online, hostile, api().clock.now));
      assert.equal(res.code, 'growid_gone');
      assert.equal(res.message, gatewayMessages.growIdGone(hostile, online), 'read back, it is the text itself');
      assert.ok(!res.html.includes('<img'), 'never markup');
      assert.ok(res.html.includes('&lt;img src=x onerror=alert(1)&gt;&quot;&amp;&#39;'));
      const typed = await gatewayLogin(api(), { server: '"><b>x</b>', growId: '<i>y</i>', password: 'pw' });
      assert.equal(typed.code, 'invalid');
      assert.ok(!typed.html?.includes('<b>') && !typed.html?.includes('<i>'));
      assert.ok(typed.html?.includes('value="&quot;&gt;&lt;b&gt;x&lt;/b&gt;"'), 'the server typed is kept, escaped');
      assert.ok(!typed.html?.includes('value="pw"'), 'the password is never sent back');
    });

    it('limits refreshes per server and GrowID (also along a chain of fresh tokens) and per IP, like sign-ins', async () => {
      let code: string | undefined;
      let successes = 0;
      for (let i = 0; i < 12 && code !== 'rate_limited'; i++) {
        const res = await gatewayCheckToken(api(), firstToken);
        if (res.body?.status === 'success') successes++;
        code = res.code;
      }
      assert.equal(code, 'rate_limited');
      assert.equal(successes, 10, 'ten refreshes of one token per window');
      api().clock.now += 61_000;
      api().clock.now += 61_000;
      // Each refresh hands out a new token: refreshing with it counts against the same account.
      let chained = firstToken;
      let chainCode: string | undefined;
      for (let i = 0; i < 12 && chainCode !== 'rate_limited'; i++) {
        const res = await gatewayCheckToken(api(), chained);
        chained = res.body?.token ?? chained;
        chainCode = res.code;
      }
      assert.equal(chainCode, 'rate_limited', 'a chain of fresh tokens is not a way around the limit');
      api().clock.now += 61_000;
      assert.equal((await gatewayCheckToken(api(), firstToken)).body?.status, 'success', 'the next window counts anew');
      let ip: string | undefined;
      for (let i = 0; i < 40 && ip !== 'rate_limited'; i++) ip = (await gatewayCheckToken(api(), `bad${i}`)).code;
      assert.equal(ip, 'rate_limited', 'one IP runs out whatever the tokens');
    });

    it("keeps the success answer the test client reads (packages/gtclient's fetchToken)", async () => {
      const { tlsPort } = gatewayPorts(api());
      const token = await fetchToken(
        loginValidateUrl(`127.0.0.1:${tlsPort}`),
        { server: online, growId: 'Sapling1', password: 'pw-sap' },
        { insecure: true },
      );
      assert.ok(readGameToken(token, 'gateway', loadGatewayKey(api().ctx.config.dataDir), api().clock.now));
    });
  },
  GATEWAY_ENV,
);
