import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LETS_ENCRYPT_DIRECTORY, loginUrlOf } from '../src/config/login-host.ts';
import { loadConfig } from '../src/config.ts';

describe('configuration: the login host and its certificate (ADR 0027)', () => {
  it('is unset by default: loginurl keeps naming the host the client asked for', () => {
    assert.equal(loadConfig({}).gateway.login, undefined);
  });

  it('reads a DNS name with an optional port, lower-cased; loginurl omits :443', () => {
    const plain = loadConfig({ CANOPY_LOGIN_HOST: ' Login.Example.COM ' }).gateway.login;
    assert.deepEqual(plain, { name: 'login.example.com', port: undefined, tls: undefined, acme: undefined });
    assert.equal(plain && loginUrlOf(plain), 'login.example.com');
    const on443 = loadConfig({ CANOPY_LOGIN_HOST: 'login.example.com:443' }).gateway.login;
    assert.equal(on443 && loginUrlOf(on443), 'login.example.com');
    const other = loadConfig({ CANOPY_LOGIN_HOST: 'login.example.com:8443' }).gateway.login;
    assert.equal(other && loginUrlOf(other), 'login.example.com:8443');
  });

  it('refuses an address, a scheme, a path, a bare label or a bad port, naming the variable', () => {
    for (const bad of [
      '127.0.0.1',
      'https://login.example.com',
      'login.example.com/x',
      'localhost',
      'login.example.com:0',
      'login.example.com:99999',
      'bad_name.example.com',
      'a|b.example.com',
    ])
      assert.throws(() => loadConfig({ CANOPY_LOGIN_HOST: bad }), /CANOPY_LOGIN_HOST: /, bad);
  });

  it('reads the given certificate pair, which needs the login host and both files', () => {
    const c = loadConfig({
      CANOPY_LOGIN_HOST: 'login.example.com',
      CANOPY_LOGIN_TLS_CERT: '/etc/canopy/login.crt',
      CANOPY_LOGIN_TLS_KEY: '/etc/canopy/login.key',
    });
    assert.deepEqual(c.gateway.login?.tls, { certFile: '/etc/canopy/login.crt', keyFile: '/etc/canopy/login.key' });
    assert.throws(
      () => loadConfig({ CANOPY_LOGIN_HOST: 'login.example.com', CANOPY_LOGIN_TLS_CERT: '/x.crt' }),
      /CANOPY_LOGIN_TLS_KEY: CANOPY_LOGIN_TLS_CERT and CANOPY_LOGIN_TLS_KEY are set together/,
    );
    assert.throws(
      () => loadConfig({ CANOPY_LOGIN_TLS_CERT: '/x.crt', CANOPY_LOGIN_TLS_KEY: '/x.key' }),
      /CANOPY_LOGIN_HOST: is required/,
    );
  });

  it("reads ACME with Let's Encrypt production and port 80 by default, and checks its values", () => {
    const c = loadConfig({ CANOPY_LOGIN_HOST: 'login.example.com', CANOPY_LOGIN_ACME: 'on' });
    assert.deepEqual(c.gateway.login?.acme, { directoryUrl: LETS_ENCRYPT_DIRECTORY, email: undefined, httpPort: 80 });
    const custom = loadConfig({
      CANOPY_LOGIN_HOST: 'login.example.com',
      CANOPY_LOGIN_ACME: 'on',
      CANOPY_ACME_DIRECTORY_URL: 'https://acme-staging-v02.api.letsencrypt.org/directory',
      CANOPY_ACME_EMAIL: 'ops@example.com',
      CANOPY_ACME_HTTP_PORT: '8080',
    });
    assert.deepEqual(custom.gateway.login?.acme, {
      directoryUrl: 'https://acme-staging-v02.api.letsencrypt.org/directory',
      email: 'ops@example.com',
      httpPort: 8080,
    });
    const host = { CANOPY_LOGIN_HOST: 'login.example.com', CANOPY_LOGIN_ACME: 'on' };
    assert.throws(
      () => loadConfig({ CANOPY_LOGIN_ACME: 'on' }),
      /CANOPY_LOGIN_HOST: is required with CANOPY_LOGIN_ACME/,
    );
    assert.throws(() => loadConfig({ ...host, CANOPY_LOGIN_ACME: 'yes' }), /CANOPY_LOGIN_ACME: /);
    assert.throws(() => loadConfig({ ...host, CANOPY_ACME_EMAIL: 'not-an-email' }), /CANOPY_ACME_EMAIL: /);
    assert.throws(() => loadConfig({ ...host, CANOPY_ACME_DIRECTORY_URL: 'ftp://x' }), /CANOPY_ACME_DIRECTORY_URL: /);
    assert.throws(() => loadConfig({ ...host, CANOPY_ACME_HTTP_PORT: '70000' }), /CANOPY_ACME_HTTP_PORT: /);
    assert.throws(
      () => loadConfig({ ...host, CANOPY_ACME_HTTP_PORT: '8443', CANOPY_GATEWAY_TLS_PORT: '8443' }),
      /CANOPY_ACME_HTTP_PORT: must differ/,
    );
    assert.throws(
      () => loadConfig({ ...host, CANOPY_LOGIN_TLS_CERT: '/x.crt', CANOPY_LOGIN_TLS_KEY: '/x.key' }),
      /CANOPY_LOGIN_ACME: give CANOPY_LOGIN_TLS_CERT\/KEY or turn CANOPY_LOGIN_ACME on, not both/,
    );
  });

  it('refuses a login host without a real certificate in production (self-signed is for development)', () => {
    const production = { NODE_ENV: 'production', DISCORD_CLIENT_ID: '123', CANOPY_LOGIN_HOST: 'login.example.com' };
    assert.throws(() => loadConfig(production), /CANOPY_LOGIN_HOST: needs a certificate the game's web view trusts/);
    assert.ok(loadConfig({ ...production, CANOPY_LOGIN_ACME: 'on' }).gateway.login?.acme);
  });
});
