import assert from 'node:assert/strict';
import { it } from 'node:test';
import { loginResponseSchema, messages, SESSION_TOKEN_TTL_SECONDS } from '@canopy/contract';
import { REFRESH_GRACE_MS } from '../src/auth/auth.service.ts';
import { buildDiscordUser, signIn } from './support/factories.ts';
import { type ApiResponse, describeEachDatabase } from './support/harness.ts';

const SUPER = '199999999999999999';

describeEachDatabase(
  'sign-in and sessions',
  (api) => {
    it('exchanges a valid Discord token for a session and creates the user', async () => {
      const { user, accessToken } = buildDiscordUser(api(), { username: 'Grower', discriminator: '0042' });
      const res = await api().request('POST', '/auth/login', { body: { accessToken } });
      assert.equal(res.status, 200);
      const body = loginResponseSchema.parse(res.body);
      assert.equal(body.user.id, user.id);
      assert.equal(body.user.username, 'Grower');
      assert.equal(body.user.discriminator, '0042');
      assert.equal(body.user.growId, null);
      assert.equal(body.user.isAdmin, false);
    });

    it('refuses an invalid or expired Discord token with 401 and creates nobody', async () => {
      const bad = await api().request('POST', '/auth/login', { body: { accessToken: 'not-a-token' } });
      assert.equal(bad.status, 401);
      assert.equal(bad.body.error, messages.discordTokenInvalid);

      const { user, accessToken } = buildDiscordUser(api());
      api().discord.expire(accessToken);
      const expired = await api().request('POST', '/auth/login', { body: { accessToken } });
      assert.equal(expired.status, 401);
      assert.equal(await api().ctx.db.get('SELECT id FROM users WHERE id = ?', [user.id]), undefined);
    });

    it('answers 502 when Discord is down, and 400 for a missing token', async () => {
      const { accessToken } = buildDiscordUser(api());
      api().discord.failWith = 500;
      try {
        const res = await api().request('POST', '/auth/login', { body: { accessToken } });
        assert.equal(res.status, 502);
        assert.equal(res.body.error, messages.discordUnavailable);
      } finally {
        api().discord.failWith = null;
      }
      const missing = await api().request('POST', '/auth/login', { body: {} });
      assert.equal(missing.status, 400);
      assert.equal(missing.body.error, 'accessToken is required.');
      const noBody = await api().request('POST', '/auth/login');
      assert.equal(noBody.status, 400);
    });

    it('makes the configured ids super admins on sign-in', async () => {
      const s = await signIn(api(), { id: SUPER });
      const profile = await api().request('POST', '/register', {
        token: s.sessionToken,
        body: { discordId: SUPER, discordUsername: 'boss', growId: 'BossMan' },
      });
      assert.equal(profile.status, 201);
      const res = await api().request('GET', `/users/${SUPER}/profile`, { token: s.sessionToken });
      assert.equal(res.body.profile.isAdmin, true);
      assert.equal(res.body.profile.isSuperAdmin, true);
    });

    it('answers 401 for a missing, forged or expired session token', async () => {
      const s = await signIn(api());
      const path = `/users/${s.user.id}/profile`;
      const none = await api().request('GET', path);
      assert.equal(none.status, 401);
      assert.equal(none.body.error, messages.notAuthenticated);

      const [v, claims] = s.sessionToken.split('.');
      const forgedClaims = Buffer.from(
        JSON.stringify({ ...JSON.parse(Buffer.from(claims ?? '', 'base64url').toString()), sub: SUPER }),
      ).toString('base64url');
      const forged = await api().request('GET', path, {
        token: `${v}.${forgedClaims}.${s.sessionToken.split('.')[2]}`,
      });
      assert.equal(forged.status, 401);
      assert.equal((await api().request('GET', path, { token: 'garbage' })).status, 401);

      const start = api().clock.now;
      api().clock.now = start + (SESSION_TOKEN_TTL_SECONDS + 1) * 1000;
      try {
        const expired = await api().request('GET', path, { token: s.sessionToken });
        assert.equal(expired.status, 401);
        assert.equal(expired.body.code, 'session_expired');
      } finally {
        api().clock.now = start;
      }
    });

    it('rotates refresh tokens on use', async () => {
      const s = await signIn(api());
      const first = await api().request('POST', '/auth/refresh', { body: { refreshToken: s.refreshToken } });
      assert.equal(first.status, 200);
      assert.ok(first.body.sessionToken);
      assert.notEqual(first.body.refreshToken, s.refreshToken);
      const second = await api().request('POST', '/auth/refresh', { body: { refreshToken: first.body.refreshToken } });
      assert.equal(second.status, 200);
      const me = await api().request('GET', `/users/${s.user.id}/profile`, { token: second.body.sessionToken });
      assert.equal(me.status, 404, 'a valid session of an unregistered user reaches the profile call');
    });

    it('revokes the whole family when an old refresh token is reused', async () => {
      const s = await signIn(api());
      const rotated = await api().request('POST', '/auth/refresh', { body: { refreshToken: s.refreshToken } });
      assert.equal(rotated.status, 200);

      // A replay after the grace window is reuse.
      const start = api().clock.now;
      api().clock.now = start + REFRESH_GRACE_MS + 1000;
      let reuse: ApiResponse;
      try {
        reuse = await api().request('POST', '/auth/refresh', { body: { refreshToken: s.refreshToken } });
      } finally {
        api().clock.now = start;
      }
      assert.equal(reuse.status, 401);
      assert.equal(reuse.body.code, 'refresh_reused');

      // The legitimate newer token and the sessions of the family are dead too.
      const newer = await api().request('POST', '/auth/refresh', { body: { refreshToken: rotated.body.refreshToken } });
      assert.equal(newer.status, 401);
      const session = await api().request('GET', `/users/${s.user.id}/profile`, { token: rotated.body.sessionToken });
      assert.equal(session.status, 401);

      // Another sign-in of the same user is unaffected.
      const other = await api().request('POST', '/auth/login', { body: { accessToken: s.accessToken } });
      assert.equal(other.status, 200);
      const ok = await api().request('POST', '/auth/refresh', { body: { refreshToken: other.body.refreshToken } });
      assert.equal(ok.status, 200);
    });

    it('answers parallel refreshes with one token with one new session, and keeps the family', async () => {
      const s = await signIn(api());
      const answers = await Promise.all(
        Array.from({ length: 5 }, () =>
          api().request('POST', '/auth/refresh', { body: { refreshToken: s.refreshToken } }),
        ),
      );
      assert.deepEqual(
        answers.map((a) => a.status),
        [200, 200, 200, 200, 200],
      );
      const successor = answers[0]?.body.refreshToken;
      assert.notEqual(successor, s.refreshToken);
      for (const a of answers) {
        assert.equal(a.body.refreshToken, successor);
        const me = await api().request('GET', `/users/${s.user.id}/profile`, { token: a.body.sessionToken });
        assert.equal(me.status, 404, 'each session token is valid (an unregistered user reaches the profile call)');
      }
      // Exactly one successor was made, and it rotates on as usual.
      const rows = await api().ctx.db.all<{ n: number }>(
        'SELECT COUNT(*) AS n FROM refresh_tokens WHERE user_id = ? AND used_at IS NULL',
        [s.user.id],
      );
      assert.equal(Number(rows[0]?.n), 1);
      const next = await api().request('POST', '/auth/refresh', { body: { refreshToken: successor } });
      assert.equal(next.status, 200);
    });

    it('gives the same successor within the grace window and revokes the family after it', async () => {
      const s = await signIn(api());
      const first = await api().request('POST', '/auth/refresh', { body: { refreshToken: s.refreshToken } });
      assert.equal(first.status, 200);
      // The successor is not stored readable: only its hash, and a sealed copy for the window.
      const stored = await api().ctx.db.all<{ token_hash: string; successor_sealed: string | null }>(
        'SELECT token_hash, successor_sealed FROM refresh_tokens WHERE user_id = ?',
        [s.user.id],
      );
      assert.ok(stored.some((r) => r.successor_sealed !== null));
      assert.ok(!JSON.stringify(stored).includes(first.body.refreshToken));

      const start = api().clock.now;
      try {
        api().clock.now = start + REFRESH_GRACE_MS - 1000;
        const again = await api().request('POST', '/auth/refresh', { body: { refreshToken: s.refreshToken } });
        assert.equal(again.status, 200);
        assert.equal(again.body.refreshToken, first.body.refreshToken);

        api().clock.now = start + REFRESH_GRACE_MS + 1000;
        const late = await api().request('POST', '/auth/refresh', { body: { refreshToken: s.refreshToken } });
        assert.equal(late.status, 401);
        assert.equal(late.body.code, 'refresh_reused');
        const successor = await api().request('POST', '/auth/refresh', {
          body: { refreshToken: first.body.refreshToken },
        });
        assert.equal(successor.status, 401);
        const session = await api().request('GET', `/users/${s.user.id}/profile`, { token: again.body.sessionToken });
        assert.equal(session.status, 401);
        const sealed = await api().ctx.db.all(
          'SELECT id FROM refresh_tokens WHERE user_id = ? AND successor_sealed IS NOT NULL',
          [s.user.id],
        );
        assert.equal(sealed.length, 0, 'revocation drops the sealed successors');
      } finally {
        api().clock.now = start;
      }
    });

    it('forgets the sealed successor once its window has closed', async () => {
      const s = await signIn(api());
      const first = await api().request('POST', '/auth/refresh', { body: { refreshToken: s.refreshToken } });
      const start = api().clock.now;
      try {
        api().clock.now = start + REFRESH_GRACE_MS + 1000;
        const second = await api().request('POST', '/auth/refresh', {
          body: { refreshToken: first.body.refreshToken },
        });
        assert.equal(second.status, 200);
        const sealed = await api().ctx.db.all<{ used_at: number }>(
          'SELECT used_at FROM refresh_tokens WHERE user_id = ? AND successor_sealed IS NOT NULL',
          [s.user.id],
        );
        assert.deepEqual(
          sealed.map((r) => Number(r.used_at)),
          [start + REFRESH_GRACE_MS + 1000],
          'only the token used within the window keeps its sealed successor',
        );
      } finally {
        api().clock.now = start;
      }
    });

    it('does not hand the successor to the old token once the successor has rotated on', async () => {
      const s = await signIn(api());
      const first = await api().request('POST', '/auth/refresh', { body: { refreshToken: s.refreshToken } });
      const second = await api().request('POST', '/auth/refresh', { body: { refreshToken: first.body.refreshToken } });
      assert.equal(second.status, 200);
      const old = await api().request('POST', '/auth/refresh', { body: { refreshToken: s.refreshToken } });
      assert.equal(old.status, 401);
      assert.equal(old.body.code, 'refresh_reused');
    });

    it('refuses unknown and expired refresh tokens', async () => {
      const unknown = await api().request('POST', '/auth/refresh', { body: { refreshToken: 'nope' } });
      assert.equal(unknown.status, 401);
      assert.equal(unknown.body.error, messages.invalidRefreshToken);
      const s = await signIn(api());
      const start = api().clock.now;
      api().clock.now = start + 31 * 24 * 3600 * 1000;
      try {
        const res = await api().request('POST', '/auth/refresh', { body: { refreshToken: s.refreshToken } });
        assert.equal(res.status, 401);
      } finally {
        api().clock.now = start;
      }
    });

    it('a logout racing a refresh leaves nothing that refreshes: the family decides, not the row', async () => {
      for (let round = 0; round < 6; round++) {
        const s = await signIn(api());
        const [refreshed, out] = await Promise.all([
          api().request('POST', '/auth/refresh', { body: { refreshToken: s.refreshToken } }),
          api().request('POST', '/auth/logout', { body: { refreshToken: s.refreshToken } }),
        ]);
        assert.equal(out.status, 200);
        if (refreshed.status !== 200) continue;
        const again = await api().request('POST', '/auth/refresh', {
          body: { refreshToken: refreshed.body.refreshToken },
        });
        assert.equal(again.status, 401, `round ${round}: a successor made beside a logout must not refresh`);
      }
    });

    it('logout revokes the refresh token and its sessions', async () => {
      const s = await signIn(api());
      const out = await api().request('POST', '/auth/logout', { body: { refreshToken: s.refreshToken } });
      assert.equal(out.status, 200);
      assert.equal(
        (await api().request('POST', '/auth/refresh', { body: { refreshToken: s.refreshToken } })).status,
        401,
      );
      assert.equal((await api().request('GET', `/users/${s.user.id}/profile`, { token: s.sessionToken })).status, 401);
    });
  },
  { CANOPY_SUPER_ADMINS: SUPER },
);
