import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { loadConfig } from '../src/config.ts';
import { signIn } from './support/factories.ts';
import { describeEachDatabase } from './support/harness.ts';

const PER_IP = 12;
const PER_ACCOUNT = 3;

describeEachDatabase(
  'http hygiene',
  (api) => {
    it('sends security headers on every answer', async () => {
      for (const path of ['/status', '/no-such-route']) {
        const res = await fetch(api().url + path);
        const csp = res.headers.get('content-security-policy') ?? '';
        assert.match(csp, /default-src 'self'/, path);
        assert.match(csp, /frame-ancestors 'none'/, path);
        assert.match(csp, /object-src 'none'/, path);
        assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|upgrade-insecure-requests/, path);
        assert.equal(res.headers.get('x-content-type-options'), 'nosniff', path);
        assert.equal(res.headers.get('referrer-policy'), 'no-referrer', path);
        assert.equal(res.headers.get('x-frame-options'), 'DENY', path);
        // The api's own time for the answer, which bench scripts read apart from the client's.
        assert.match(res.headers.get('server-timing') ?? '', /^app;dur=\d+\.\d{3}$/, path);
      }
    });

    // These run in order on one api: each test's requests count against the same per-IP limits.
    it('limits /register per account: one user probing GrowIDs is stopped, another user is not', async () => {
      const a = await signIn(api());
      const b = await signIn(api());
      const register = (s: typeof a, growId: string) =>
        api().request('POST', '/register', {
          token: s.sessionToken,
          body: { discordId: s.user.id, discordUsername: s.user.username, growId },
        });
      for (let i = 0; i < PER_ACCOUNT; i++) assert.equal((await register(a, 'no way!')).status, 400);
      const limited = await register(a, `Ok${a.user.id.slice(-8)}`);
      assert.equal(limited.status, 429);
      assert.equal(limited.body.code, 'rate_limited');
      assert.equal((await register(b, `Ok${b.user.id.slice(-8)}`)).status, 201, 'another account is not limited');
    });

    it('limits /auth/refresh per refresh token, with Retry-After', async () => {
      const refresh = (refreshToken: string) =>
        fetch(`${api().url}/auth/refresh`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ refreshToken }),
        });
      for (let i = 0; i < PER_ACCOUNT; i++) assert.equal((await refresh('stolen-token')).status, 401);
      const limited = await refresh('stolen-token');
      assert.equal(limited.status, 429);
      assert.ok(Number(limited.headers.get('retry-after')) > 0);
      assert.equal((await refresh('another-token')).status, 401, 'another token is counted apart');
    });

    it('answers 300 login attempts from one address with 429 and Retry-After once over the limit', async () => {
      const statuses: number[] = [];
      let last: Response | undefined;
      for (let i = 0; i < 300; i++) {
        last = await fetch(`${api().url}/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ accessToken: `guess-${i}` }),
        });
        statuses.push(last.status);
        if (last.status !== 429) await last.text();
      }
      // The two sign-ins above used two of this address's attempts.
      assert.deepEqual(
        statuses.slice(0, PER_IP - 2).filter((s) => s !== 401),
        [],
      );
      assert.deepEqual(
        statuses.slice(PER_IP - 2).filter((s) => s !== 429),
        [],
      );
      assert.ok(Number(last?.headers.get('retry-after')) > 0);
      assert.deepEqual(await last?.json(), {
        error: `Too many requests. Please try again in ${last?.headers.get('retry-after')} seconds.`,
        code: 'rate_limited',
      });
      assert.equal((await api().request('GET', '/status')).status, 200, 'other routes are not limited');
    });
  },
  {
    CANOPY_AUTH_RATE_LIMIT_PER_IP: String(PER_IP),
    CANOPY_AUTH_RATE_LIMIT_PER_ACCOUNT: String(PER_ACCOUNT),
    // The tests count across each other in one window; on PostgreSQL windows are aligned to the wall clock, so a
    // 60 s window could turn over between two of them (seen in CI). A day-long one practically never does here.
    CANOPY_RATE_LIMIT_WINDOW_SECONDS: '86400',
  },
);

describe('listening address', () => {
  it('stays on 127.0.0.1 with development sign-in unless HOST is set', () => {
    assert.equal(loadConfig({}).host, '127.0.0.1');
    assert.equal(loadConfig({ HOST: '' }).host, '127.0.0.1');
    assert.equal(loadConfig({ HOST: '0.0.0.0' }).host, '0.0.0.0');
    assert.equal(loadConfig({ HOST: '0.0.0.0' }).hostExplicit, true);
    assert.equal(loadConfig({ DISCORD_CLIENT_ID: '123' }).host, '0.0.0.0');
    assert.equal(loadConfig({ NODE_ENV: 'production', DISCORD_CLIENT_ID: '123' }).host, '0.0.0.0');
  });

  it('says where it listens when development sign-in is on', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'canopy-host-test-'));
    const env: Record<string, string | undefined> = { ...process.env, PORT: '0', LOG_LEVEL: 'warn' };
    for (const key of ['HOST', 'DISCORD_CLIENT_ID', 'DATABASE_URL', 'DISCORD_API_URL', 'NODE_TEST_CONTEXT'])
      delete env[key];
    const child = spawn(process.execPath, [new URL('../src/main.ts', import.meta.url).pathname], {
      env: { ...env, CANOPY_DATA_DIR: dataDir, NODE_ENV: 'test', CANOPY_WEB_DIST: join(dataDir, 'none') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      await new Promise<void>((resolve, reject) => {
        const onData = (d: Buffer) => {
          out += d;
          if (/running at .*\n/.test(out)) resolve();
        };
        child.stdout.on('data', onData);
        child.stderr.on('data', onData);
        child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${out}`)));
      });
      assert.match(
        out,
        /running at http:\/\/localhost:\d+ \(listening on 127\.0\.0\.1, development sign-in; database: sqlite\)/,
      );
    } finally {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
