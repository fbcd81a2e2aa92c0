import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { rmSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { connect } from 'node:tls';
import { type AcmeStandIn, startAcmeStandIn } from './support/acme-stand-in.ts';
import { dialects } from './support/databases.ts';
import { GATEWAY_ENV, gatewayPorts, gatewayRequest, generatedCert } from './support/gateway.ts';
import { startApi, type TestApi } from './support/harness.ts';
import { LOGIN_NAME, loginCertificate } from './support/login-host.ts';

const LOGIN = LOGIN_NAME;

/** A TLS handshake with the gateway for `servername`, trusting only `ca`: whether it verified, and the cert. */
function handshake(api: TestApi, servername: string, ca: string) {
  const { tlsPort } = gatewayPorts(api);
  return new Promise<{ authorized: boolean; error?: string; cert: X509Certificate }>((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: tlsPort, servername, ca, rejectUnauthorized: false }, () => {
      const raw = socket.getPeerCertificate().raw;
      resolve({
        authorized: socket.authorized,
        error: socket.authorizationError?.toString(),
        cert: new X509Certificate(raw),
      });
      socket.end();
    });
    socket.on('error', reject);
  });
}

async function loginUrlLine(api: TestApi) {
  const res = await gatewayRequest(api, 'POST', '/growtopia/server_data.php', {
    body: 'version=5.51&platform=0&protocol=225',
    headers: { 'content-type': 'application/x-www-form-urlencoded', host: 'www.growtopia1.com' },
  });
  return /\nloginurl\|([^\n]*)\n/.exec(res.text)?.[1];
}

/** One plain-HTTP request to the gateway's HTTP-01 listener. */
function plainHttp(port: number, method: string, path: string) {
  return new Promise<{ status: number; location?: string; text: string }>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers: { host: LOGIN } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => {
        text += d;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

for (const dialect of dialects) {
  describe(`gateway login host: a given certificate by SNI [${dialect}]`, () => {
    let api: TestApi;
    let dir: string;
    let loginCert: string;
    before(async () => {
      const given = await loginCertificate();
      dir = given.dir;
      loginCert = given.cert;
      api = await startApi(dialect, {
        ...GATEWAY_ENV,
        CANOPY_LOGIN_HOST: `${LOGIN}:8443`,
        CANOPY_LOGIN_TLS_CERT: given.certPath,
        CANOPY_LOGIN_TLS_KEY: given.keyPath,
      });
    });
    after(async () => {
      await api.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('names the configured login host in loginurl, whatever Host server_data.php was asked on', async () => {
      assert.equal(await loginUrlLine(api), `${LOGIN}:8443`);
    });

    it("serves the given certificate for the login host, the self-signed one for the game's hostnames", async () => {
      const login = await handshake(api, LOGIN, loginCert);
      assert.equal(login.authorized, true, login.error);
      assert.equal(login.cert.fingerprint256, new X509Certificate(loginCert).fingerprint256);
      const game = await handshake(api, 'www.growtopia1.com', generatedCert(api));
      assert.equal(game.authorized, true, game.error);
      assert.equal(game.cert.fingerprint256, new X509Certificate(generatedCert(api)).fingerprint256);
      const wrong = await handshake(api, 'www.growtopia1.com', loginCert);
      assert.equal(wrong.authorized, false, 'the login certificate is not served for other names');
      assert.equal(api.ctx.gateway?.login.sni.loginSource(), 'operator');
    });
  });

  describe(`gateway login host: ACME issuance and renewal against a local CA [${dialect}]`, () => {
    let api: TestApi;
    let ca: AcmeStandIn;
    before(async () => {
      ca = await startAcmeStandIn({ validityDays: 90 });
      api = await startApi(dialect, {
        ...GATEWAY_ENV,
        CANOPY_LOGIN_HOST: LOGIN,
        CANOPY_LOGIN_ACME: 'on',
        CANOPY_ACME_DIRECTORY_URL: ca.directoryUrl,
        CANOPY_ACME_EMAIL: 'ops@canopy.test',
        CANOPY_ACME_HTTP_PORT: '0',
      });
      assert.ok(api.ctx.gateway?.login.acmeHttpPort, 'the HTTP-01 listener is up');
    });
    after(async () => {
      await api.close();
      await ca.close();
    });

    const acme = () => {
      const side = api.ctx.gateway?.login.acme;
      assert.ok(side, 'ACME is on');
      return side;
    };

    it('names the login host without a port in loginurl', async () => {
      assert.equal(await loginUrlLine(api), LOGIN);
    });

    it('obtains a certificate over HTTP-01 and serves it to a client that trusts only the CA', async () => {
      // The order begun at start waits for the CA to know the HTTP-01 port; this check joins it, so it is the
      // one that issues (whenever the order completes).
      const pending = acme().check();
      ca.setChallengePort(api.ctx.gateway?.login.acmeHttpPort ?? 0);
      const first = await pending;
      assert.equal(first.result, 'issued', JSON.stringify(first));
      assert.deepEqual(
        ca.validations.map((v) => ({ host: v.host, ok: v.ok })),
        [{ host: LOGIN, ok: true }],
        'the CA fetched the key authorization with the login name as Host',
      );
      const served = await handshake(api, LOGIN, ca.caPem);
      assert.equal(served.authorized, true, served.error);
      assert.ok(served.cert.subjectAltName?.includes(`DNS:${LOGIN}`));
      assert.equal(api.ctx.gateway?.login.sni.loginSource(), 'acme');
      const game = await handshake(api, 'www.growtopia1.com', generatedCert(api));
      assert.equal(game.authorized, true, 'the game hostnames keep the self-signed pair');
      for (const file of ['account-key.pem', 'cert.pem', 'key.pem'])
        assert.equal(statSync(join(api.ctx.config.dataDir, 'gateway-tls', 'acme', file)).mode & 0o777, 0o600, file);
    });

    it('keeps a certificate with more than 30 days left, and renews it with fewer, without a restart', async () => {
      const before = (await handshake(api, LOGIN, ca.caPem)).cert.fingerprint256;
      assert.equal((await acme().check()).result, 'kept');
      assert.equal(ca.issued, 1);
      api.clock.now += 61 * 86_400_000;
      const renewed = await acme().check();
      assert.equal(renewed.result, 'issued', JSON.stringify(renewed));
      assert.equal(ca.issued, 2);
      const after = await handshake(api, LOGIN, ca.caPem);
      assert.equal(after.authorized, true, after.error);
      assert.notEqual(after.cert.fingerprint256, before, 'the new certificate is served at once');
    });

    it('keeps serving the current certificate when the CA refuses the challenge, and says when it retries', async () => {
      const current = (await handshake(api, LOGIN, ca.caPem)).cert.fingerprint256;
      api.clock.now += 61 * 86_400_000;
      ca.expectWrongAnswer(true);
      try {
        const failed = await acme().check();
        assert.equal(failed.result, 'failed');
        assert.ok(failed.result === 'failed' && failed.retryInMs > 0);
        assert.equal(ca.validations.at(-1)?.ok, false, 'the CA really compared the answer');
      } finally {
        ca.expectWrongAnswer(false);
      }
      const still = await handshake(api, LOGIN, ca.caPem);
      assert.equal(still.cert.fingerprint256, current);
    });

    it('answers only published tokens on plain HTTP, redirects other GETs to HTTPS and refuses other methods', async () => {
      const port = api.ctx.gateway?.login.acmeHttpPort ?? 0;
      assert.equal((await plainHttp(port, 'GET', '/.well-known/acme-challenge/unknownToken')).status, 404);
      assert.equal((await plainHttp(port, 'GET', '/.well-known/acme-challenge/..%2Fetc')).status, 404);
      const moved = await plainHttp(port, 'GET', '/player/login/dashboard?x=1');
      assert.deepEqual(
        { status: moved.status, location: moved.location },
        {
          status: 301,
          location: `https://${LOGIN}/player/login/dashboard`,
        },
      );
      const odd = await plainHttp(port, 'GET', '//evil.example/x');
      assert.equal(odd.location, `https://${LOGIN}/`, 'never a redirect off the login host');
      assert.equal((await plainHttp(port, 'POST', '/.well-known/acme-challenge/x')).status, 405);
    });
  });
}
