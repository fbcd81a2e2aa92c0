import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readPanelTls } from '../src/config/panel-tls.ts';
import { loadConfig } from '../src/config.ts';
import { type ApiProcess, spawnApiProcess, startLine } from './support/api-process.ts';
import { FakeDiscord } from './support/fake-discord.ts';
import { LOGIN_NAME, loginCertificate } from './support/login-host.ts';

// The panel's own HTTPS (CANOPY_TLS_CERT/KEY, issue 21 item 10, ADR 0028): browsers keep crypto.subtle and the
// session private only on HTTPS or localhost, so a panel reached over the network should listen with HTTPS.

/** `apps/api/src/main.ts` as `npm start` runs it, with a Discord app (development sign-in is HTTP-only). */
function startMain(dataDir: string, env: Record<string, string>): ApiProcess {
  return spawnApiProcess(dataDir, { DISCORD_CLIENT_ID: 'panel-tls-test', ...env });
}

/** A request over TLS that trusts only `ca` and checks the certificate for LOGIN_NAME. */
function httpsCall(port: number, ca: string, method: string, path: string, body?: unknown) {
  return new Promise<{ status: number; json: unknown }>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        servername: LOGIN_NAME,
        ca,
        method,
        path,
        headers: { 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => {
          text += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

describe('the panel over HTTPS', () => {
  let cert: Awaited<ReturnType<typeof loginCertificate>>;
  let other: Awaited<ReturnType<typeof loginCertificate>>;
  const dirs: string[] = [];
  const children: ChildProcess[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'canopy-panel-tls-'));
    dirs.push(dir);
    return dir;
  };
  before(async () => {
    cert = await loginCertificate();
    other = await loginCertificate();
    dirs.push(cert.dir, other.dir);
  });
  after(async () => {
    for (const child of children)
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('listens with HTTPS when CANOPY_TLS_CERT and CANOPY_TLS_KEY are set, and signs in over it', async () => {
    const discord = await new FakeDiscord().start();
    try {
      discord.grant('tls-token', {
        id: '123456789012345678',
        username: 'secure',
        discriminator: '0001',
        avatar: null,
        email: null,
      });
      const proc = startMain(dataDir(), {
        CANOPY_TLS_CERT: cert.certPath,
        CANOPY_TLS_KEY: cert.keyPath,
        DISCORD_API_URL: discord.url,
      });
      children.push(proc.child);
      const { url, code } = await startLine(proc, 20_000);
      assert.ok(url, `the panel started (exit ${code}):\n${proc.output()}`);
      assert.match(url, /^https:\/\/localhost:\d+$/, 'the start line names https');
      const port = Number(new URL(url).port);

      const config = await httpsCall(port, cert.cert, 'GET', '/auth/config');
      assert.equal(config.status, 200);
      const login = await httpsCall(port, cert.cert, 'POST', '/auth/login', { accessToken: 'tls-token' });
      assert.equal(login.status, 200);
      assert.equal((login.json as { user: { username: string } }).user.username, 'secure');

      // Plain HTTP on the same port gets no answer from the api.
      const plain = await new Promise<string>((resolve) => {
        httpGet({ host: '127.0.0.1', port, path: '/auth/config' }, (res) => resolve(`status ${res.statusCode}`)).on(
          'error',
          (e) => resolve(e.message),
        );
      });
      assert.doesNotMatch(plain, /status 200/);
    } finally {
      await discord.stop();
    }
  });

  it('does not start when a certificate file cannot be read, naming the variable', async () => {
    const proc = startMain(dataDir(), { CANOPY_TLS_CERT: join(cert.dir, 'missing.crt'), CANOPY_TLS_KEY: cert.keyPath });
    children.push(proc.child);
    const { url, code } = await startLine(proc, 20_000);
    assert.equal(url, undefined);
    assert.equal(code, 1);
    assert.match(proc.output(), /CANOPY_TLS_CERT: cannot read .*missing\.crt/);
  });

  it('refuses a key that is not the certificate’s, and a file that is not PEM', () => {
    assert.throws(
      () => readPanelTls({ certFile: cert.certPath, keyFile: other.keyPath }),
      /CANOPY_TLS_CERT and CANOPY_TLS_KEY are not a PEM certificate and its private key/,
    );
    const junk = join(cert.dir, 'junk.pem');
    writeFileSync(junk, 'not a certificate');
    assert.throws(
      () => readPanelTls({ certFile: junk, keyFile: cert.keyPath }),
      /are not a PEM certificate and its private key/,
    );
    assert.deepEqual(Object.keys(readPanelTls({ certFile: cert.certPath, keyFile: cert.keyPath })), ['cert', 'key']);
  });

  it('checks the variables together at start', () => {
    assert.throws(
      () => loadConfig({ DISCORD_CLIENT_ID: '1', CANOPY_TLS_CERT: 'a.crt' }),
      /CANOPY_TLS_KEY: CANOPY_TLS_CERT and CANOPY_TLS_KEY are set together or not at all/,
    );
    assert.throws(
      () => loadConfig({ CANOPY_TLS_CERT: 'a.crt', CANOPY_TLS_KEY: 'a.key' }),
      /CANOPY_TLS_CERT: needs DISCORD_CLIENT_ID: development sign-in works over plain HTTP only/,
    );
    const c = loadConfig({ DISCORD_CLIENT_ID: '1', CANOPY_TLS_CERT: '/etc/canopy/panel.crt', CANOPY_TLS_KEY: 'k.pem' });
    assert.equal(c.tls?.certFile, '/etc/canopy/panel.crt');
    assert.match(c.tls?.keyFile ?? '', /^\/.*\/k\.pem$/, 'resolved to an absolute path');
    assert.equal(loadConfig({}).tls, undefined, 'plain HTTP by default');
  });
});
