import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { connect } from 'node:tls';
import { defaultSettings, gatewayMessages } from '@canopy/contract';
import { generate } from 'selfsigned';
import { settingsRepo } from '../src/settings/settings.repo.ts';
import { GATEWAY_ENV, gatewayPorts, gatewayRequest, generatedCert } from './support/gateway.ts';
import { startApi, type TestApi } from './support/harness.ts';

const der = (pem: string) => pem.replace(/-----[^-]+-----|\s/g, '');

/** Resolves once the server closed the socket; rejects if it is still open at the deadline. */
function closedBy(socket: import('node:tls').TLSSocket, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the gateway kept a slow request open for ${ms} ms`));
    }, ms);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve();
    });
    socket.on('error', () => {});
    // Read what comes (a 408, the end): a paused socket would never see the server close it.
    socket.resume();
  });
}

describe('gateway HTTPS: server_data.php and TLS', () => {
  let api: TestApi;
  before(async () => {
    api = await startApi('sqlite', GATEWAY_ENV);
  });
  after(() => api.close());

  it('answers the key|value body with the public IP, the front port, the login url and the end marker', async () => {
    const { tlsPort, udpPort } = gatewayPorts(api);
    assert.ok(udpPort > 0 && tlsPort > 0, 'ports 0 became real ports');
    const res = await gatewayRequest(api, 'POST', '/growtopia/server_data.php', {
      body: 'version=4.61&platform=0&protocol=209',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'UbiServices_SDK_2022' },
    });
    assert.equal(res.status, 200);
    const lines = res.text.trimEnd().split('\n');
    assert.deepEqual(lines.slice(0, 5), ['server|127.0.0.1', `port|${udpPort}`, 'type|1', 'type2|1', '#maint|']);
    assert.equal(lines[5], `loginurl|127.0.0.1:${tlsPort}`);
    assert.match(lines[6] ?? '', /^meta|[A-Za-z0-9_-]{8,}$/);
    assert.equal(lines[7], 'RTENDMARKERBS1001');
    assert.equal(lines.length, 8);
  });

  it('names the host the client asked for in loginurl, and never a Host header that could break the body', async () => {
    const { tlsPort } = gatewayPorts(api);
    const named = await gatewayRequest(api, 'POST', '/growtopia/server_data.php', {
      body: '',
      headers: { host: 'www.growtopia1.com' },
    });
    assert.match(named.text, new RegExp(`\\nloginurl\\|www\\.growtopia1\\.com:${tlsPort}\\n`));
    const odd = await gatewayRequest(api, 'POST', '/growtopia/server_data.php', {
      body: '',
      headers: { host: 'evil|x' },
    });
    assert.match(odd.text, new RegExp(`\\nloginurl\\|127\\.0\\.0\\.1:${tlsPort}\\n`));
  });

  it('shows the maintenance line while the platform is in maintenance', async () => {
    await settingsRepo.save(api.ctx.db, { ...defaultSettings, maintenance: true });
    const on = await gatewayRequest(api, 'POST', '/growtopia/server_data.php', { body: '' });
    assert.match(on.text, new RegExp(`\\nmaint\\|${gatewayMessages.maintenance.replace(/\./g, '\\.')}\\n`));
    assert.doesNotMatch(on.text, /#maint/);
    await settingsRepo.save(api.ctx.db, defaultSettings);
    const off = await gatewayRequest(api, 'POST', '/growtopia/server_data.php', { body: '' });
    assert.match(off.text, /\n#maint\|\n/);
  });

  it('serves the self-signed certificate it generated once into the data directory (0600)', async () => {
    const res = await gatewayRequest(api, 'POST', '/growtopia/server_data.php', { body: '' });
    assert.equal(res.peerCert, der(generatedCert(api)));
    for (const file of ['gateway-tls/cert.pem', 'gateway-tls/key.pem', 'gateway-key'])
      assert.equal(statSync(join(api.ctx.config.dataDir, file)).mode & 0o777, 0o600, file);
  });

  it('refuses a body over 4 KB with 413 and huge headers with 431, and still serves afterwards', async () => {
    const big = await gatewayRequest(api, 'POST', '/growtopia/server_data.php', { body: 'x'.repeat(64 * 1024) });
    assert.equal(big.status, 413);
    const headers = await gatewayRequest(api, 'POST', '/growtopia/server_data.php', {
      body: '',
      headers: { 'x-filler': 'y'.repeat(20_000) },
    });
    assert.equal(headers.status, 431);
    const ok = await gatewayRequest(api, 'POST', '/growtopia/server_data.php', { body: '' });
    assert.equal(ok.status, 200);
  });

  it('answers malformed calls with 4xx: unknown path, bad JSON, a JSON array, an unknown content type', async () => {
    assert.equal((await gatewayRequest(api, 'GET', '/growtopia/server_data.php')).status, 404);
    assert.equal((await gatewayRequest(api, 'POST', '/etc/passwd', { body: '' })).status, 404);
    const send = (body: string, type: string) =>
      gatewayRequest(api, 'POST', '/player/growid/login/validate', { body, headers: { 'content-type': type } });
    assert.equal((await send('{"server":', 'application/json')).status, 400);
    assert.equal((await send('[1,2]', 'application/json')).status, 400);
    assert.equal((await send('<x/>', 'application/xml')).status, 415);
    assert.equal((await gatewayRequest(api, 'POST', '/growtopia/server_data.php', { body: '' })).status, 200);
  });

  it('drops a request whose headers or body trickle in (slowloris)', async () => {
    const { tlsPort } = gatewayPorts(api);
    const open = () => connect({ host: '127.0.0.1', port: tlsPort, ca: generatedCert(api) });
    const headersOnly = open();
    headersOnly.write('POST /growtopia/server_data.php HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const halfBody = open();
    halfBody.write(
      'POST /growtopia/server_data.php HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-length: 100\r\n\r\nversion=4',
    );
    // Both must be closed by the server well before a patient attacker's minutes; 30 s leaves room for load.
    await Promise.all([closedBy(headersOnly, 30_000), closedBy(halfBody, 30_000)]);
  });

  it('limits requests per IP (429) and counts again in the next window', async () => {
    let status = 0;
    for (let i = 0; i < 200 && status !== 429; i++)
      status = (await gatewayRequest(api, 'POST', '/growtopia/server_data.php', { body: '' })).status;
    assert.equal(status, 429);
    api.clock.now += 61_000;
    assert.equal((await gatewayRequest(api, 'POST', '/growtopia/server_data.php', { body: '' })).status, 200);
  });
});

describe('gateway HTTPS: a configured certificate and key', () => {
  let api: TestApi;
  let dir: string;
  let cert: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'canopy-gateway-tls-'));
    const pems = await generate([{ name: 'commonName', value: 'play.example.test' }], {
      keySize: 2048,
      algorithm: 'sha256',
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }] }],
    });
    cert = pems.cert;
    writeFileSync(join(dir, 'cert.pem'), pems.cert);
    writeFileSync(join(dir, 'key.pem'), pems.private);
    api = await startApi('sqlite', {
      ...GATEWAY_ENV,
      CANOPY_GATEWAY_TLS_CERT: join(dir, 'cert.pem'),
      CANOPY_GATEWAY_TLS_KEY: join(dir, 'key.pem'),
    });
  });
  after(async () => {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the configured pair and generates none', async () => {
    const res = await gatewayRequest(api, 'POST', '/growtopia/server_data.php', { body: '', ca: cert });
    assert.equal(res.status, 200);
    assert.equal(res.peerCert, der(cert));
    assert.throws(() => statSync(join(api.ctx.config.dataDir, 'gateway-tls')), /ENOENT/);
  });
});
