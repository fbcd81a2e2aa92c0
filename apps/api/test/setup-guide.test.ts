import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { messages, setupGuideSchema } from '@canopy/contract';
import { SETUP_FILES_RATE_LIMIT } from '../src/setup-guide/setup-guide.routes.ts';
import { type AcmeStandIn, startAcmeStandIn } from './support/acme-stand-in.ts';
import { dialects } from './support/databases.ts';
import { signIn, signInRegistered } from './support/factories.ts';
import { GATEWAY_ENV } from './support/gateway.ts';
import { describeEachDatabase, startApi, type TestApi } from './support/harness.ts';
import { LOGIN_NAME, loginCertificate } from './support/login-host.ts';
import { sql } from './support/servers.ts';

const IP = '203.0.113.7';

const hostsBody = [
  `${IP} www.growtopia1.com`,
  `${IP} www.growtopia2.com`,
  `${IP} growtopia1.com`,
  `${IP} growtopia2.com`,
  '',
].join('\n');

const surgeBody = [
  '[General]',
  'bypass-system = true',
  '[Rule]',
  'FINAL,DIRECT',
  '[Host]',
  `www.growtopia1.com = ${IP}`,
  `www.growtopia2.com = ${IP}`,
  `growtopia1.com = ${IP}`,
  `growtopia2.com = ${IP}`,
  '',
].join('\n');

/** A public setup file as a tunnel app fetches it: no session, any Accept. */
const file = (api: TestApi, path: string, accept = '*/*') => fetch(api.url + path, { headers: { accept } });

describeEachDatabase(
  'setup guide files',
  (api) => {
    for (const [path, body] of [
      ['/setup/hosts', hostsBody],
      ['/setup/powertunnel.txt', hostsBody],
      ['/setup/surge.conf', surgeBody],
    ] as const)
      it(`serves ${path} as plain text without a session, cacheable for a short time`, async () => {
        const res = await file(api(), path);
        assert.equal(res.status, 200);
        assert.equal(res.headers.get('content-type'), 'text/plain; charset=utf-8');
        assert.equal(res.headers.get('cache-control'), 'public, max-age=300');
        assert.equal(await res.text(), body);
      });

    it('GET /setup-guide needs a session and a registered user', async () => {
      const none = await api().request('GET', '/setup-guide');
      assert.equal(none.status, 401);
      const unregistered = await signIn(api());
      const refused = await api().request('GET', '/setup-guide', { token: unregistered.sessionToken });
      assert.equal(refused.status, 403);
      assert.equal(refused.body.error, messages.notRegistered);
    });

    it('GET /setup-guide answers absolute URLs on the request origin when no public URL is set', async () => {
      const user = await signInRegistered(api());
      const res = await api().request('GET', '/setup-guide', { token: user.sessionToken });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(setupGuideSchema.parse(res.body), {
        ip: IP,
        hostsLines: hostsBody.trim().split('\n'),
        tunnelUrl: `${api().url}/setup/powertunnel.txt`,
        surgeUrl: `${api().url}/setup/surge.conf`,
        // No CANOPY_LOGIN_HOST: the sign-in page has the development certificate (the page notes it).
        loginPage: { host: null, certificate: 'self-signed' },
      });
      // The URL handed out fetches the same file.
      assert.equal(await (await fetch(res.body.tunnelUrl)).text(), hostsBody);
    });

    it('GET /setup-guide takes a well-formed Host, never a malformed one or X-Forwarded-Host', async () => {
      const user = await signInRegistered(api());
      const { port } = new URL(api().url);
      const guideWith = (headers: Record<string, string>) =>
        new Promise<{ status: number; body: { tunnelUrl: string; surgeUrl: string } }>((resolve, reject) => {
          const req = request(
            {
              host: '127.0.0.1',
              port,
              path: '/setup-guide',
              setHost: false,
              headers: { authorization: `Bearer ${user.sessionToken}`, ...headers },
            },
            (res) => {
              let text = '';
              res.on('data', (chunk) => {
                text += chunk;
              });
              res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
            },
          );
          req.on('error', reject);
          req.end();
        });
      // A name the panel is reached under (a LAN name, another port) is what a player should fetch from.
      const named = await guideWith({ host: 'panel.example.org:8080' });
      assert.equal(named.status, 200);
      assert.equal(named.body.tunnelUrl, 'http://panel.example.org:8080/setup/powertunnel.txt');
      // Not a host: the URLs use the address the request came in on, never the text.
      const local = `http://127.0.0.1:${port}`;
      for (const host of ['evil.example:80@attacker.example', 'a.example/x?', 'a.example ignore the rules', '"><b>']) {
        const res = await guideWith({ host });
        assert.equal(res.status, 200, host);
        assert.deepEqual(
          [res.body.tunnelUrl, res.body.surgeUrl],
          [`${local}/setup/powertunnel.txt`, `${local}/setup/surge.conf`],
          host,
        );
      }
      // Proxy headers are not trusted: anyone can send them.
      const forwarded = await guideWith({ host: `127.0.0.1:${port}`, 'x-forwarded-host': 'evil.example' });
      assert.equal(forwarded.body.tunnelUrl, `${local}/setup/powertunnel.txt`);
    });

    it('a banned user still gets the guide (spec 2.5)', async () => {
      const banned = await signInRegistered(api());
      await sql(api(), "UPDATE users SET is_banned = 1, ban_reason = 'x' WHERE id = ?", [banned.user.id]);
      const res = await api().request('GET', '/setup-guide', { token: banned.sessionToken });
      assert.equal(res.status, 200);
      assert.equal(res.body.ip, IP);
    });

    // Last: it spends this address's budget.
    it('limits the files per client IP with 429 and Retry-After', async () => {
      let last = await file(api(), '/setup/hosts');
      for (let i = 0; i < SETUP_FILES_RATE_LIMIT.max && last.status !== 429; i++) {
        await last.text();
        last = await file(api(), '/setup/hosts');
      }
      assert.equal(last.status, 429);
      assert.ok(Number(last.headers.get('retry-after')) >= 1);
      assert.match((await last.json()).error, /^Too many requests/);
    });
  },
  { CANOPY_PUBLIC_IP: IP },
);

describeEachDatabase(
  'setup guide behind a public URL and a game hostname',
  (api) => {
    it('builds the URLs from CANOPY_PUBLIC_URL and resolves a hostname game address', async () => {
      const user = await signInRegistered(api());
      const res = await api().request('GET', '/setup-guide', { token: user.sessionToken });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(setupGuideSchema.parse(res.body), {
        ip: '127.0.0.1',
        hostsLines: [
          '127.0.0.1 www.growtopia1.com',
          '127.0.0.1 www.growtopia2.com',
          '127.0.0.1 growtopia1.com',
          '127.0.0.1 growtopia2.com',
        ],
        tunnelUrl: 'https://panel.example.test/canopy/setup/powertunnel.txt',
        surgeUrl: 'https://panel.example.test/canopy/setup/surge.conf',
        loginPage: { host: null, certificate: 'self-signed' },
      });
      // GET /ip keeps telling the configured name.
      assert.deepEqual((await api().request('GET', '/ip', { token: user.sessionToken })).body, {
        SERVER: { IP: 'localhost' },
      });
      const surge = await (await file(api(), '/setup/surge.conf')).text();
      assert.match(surge, /^www\.growtopia1\.com = 127\.0\.0\.1$/m);
    });
  },
  { CANOPY_PUBLIC_URL: 'https://panel.example.test/canopy/', CANOPY_PUBLIC_IP: 'localhost' },
);

/** GET /setup-guide's loginPage for a fresh registered user. */
async function guideLoginPage(api: TestApi) {
  const user = await signInRegistered(api);
  const res = await api.request('GET', '/setup-guide', { token: user.sessionToken });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return setupGuideSchema.parse(res.body).loginPage;
}

describeEachDatabase(
  'setup guide: the running gateway without a login host',
  (api) => {
    it('tells the sign-in page is self-signed (development)', async () => {
      assert.ok(api().ctx.gateway, 'the gateway runs');
      assert.deepEqual(await guideLoginPage(api()), { host: null, certificate: 'self-signed' });
    });
  },
  GATEWAY_ENV,
);

describeEachDatabase(
  'setup guide: a login host without a certificate (development)',
  (api) => {
    it('names the host and tells its certificate is self-signed', async () => {
      assert.deepEqual(await guideLoginPage(api()), { host: LOGIN_NAME, certificate: 'self-signed' });
    });
  },
  { ...GATEWAY_ENV, CANOPY_LOGIN_HOST: `${LOGIN_NAME}:443` },
);

for (const dialect of dialects)
  describe(`setup guide: a login host with the operator's certificate [${dialect}]`, () => {
    let api: TestApi;
    let dir: string;
    before(async () => {
      const given = await loginCertificate();
      dir = given.dir;
      api = await startApi(dialect, {
        ...GATEWAY_ENV,
        CANOPY_LOGIN_HOST: `${LOGIN_NAME}:8443`,
        CANOPY_LOGIN_TLS_CERT: given.certPath,
        CANOPY_LOGIN_TLS_KEY: given.keyPath,
      });
    });
    after(async () => {
      await api.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('names the host as loginurl does and tells the certificate is the given one (no note)', async () => {
      assert.deepEqual(await guideLoginPage(api), { host: `${LOGIN_NAME}:8443`, certificate: 'operator' });
    });
  });

for (const dialect of dialects)
  describe(`setup guide: a login host with ACME [${dialect}]`, () => {
    let api: TestApi;
    let ca: AcmeStandIn;
    before(async () => {
      ca = await startAcmeStandIn();
      api = await startApi(dialect, {
        ...GATEWAY_ENV,
        CANOPY_LOGIN_HOST: LOGIN_NAME,
        CANOPY_LOGIN_ACME: 'on',
        CANOPY_ACME_DIRECTORY_URL: ca.directoryUrl,
        CANOPY_ACME_HTTP_PORT: '0',
      });
    });
    after(async () => {
      await api.close();
      await ca.close();
    });

    it('tells self-signed until the certificate is issued, then acme', async () => {
      // The stand-in validates nothing before it knows the HTTP-01 port: no certificate can be issued yet.
      assert.deepEqual(await guideLoginPage(api), { host: LOGIN_NAME, certificate: 'self-signed' });
      ca.setChallengePort(api.ctx.gateway?.login.acmeHttpPort ?? 0);
      const issued = await api.ctx.gateway?.login.acme?.check();
      assert.equal(issued?.result, 'issued', JSON.stringify(issued));
      assert.deepEqual(await guideLoginPage(api), { host: LOGIN_NAME, certificate: 'acme' });
    });
  });
