import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from '../src/config.ts';

describe('configuration from the environment', () => {
  it('has the embedded defaults', () => {
    const c = loadConfig({});
    assert.equal(c.port, 8080);
    assert.match(c.dataDir, /\/data$/);
    assert.equal(c.databaseUrl, undefined);
    assert.equal(c.devIdentityProvider, true);
    assert.deepEqual(c.superAdmins, []);
    assert.equal(c.nodeEnv, 'development');
  });

  it('reads the payment currency as a lower-case three-letter code, usd by default', () => {
    assert.equal(loadConfig({}).paymentCurrency, 'usd');
    assert.equal(loadConfig({ CANOPY_PAYMENT_CURRENCY: ' JPY ' }).paymentCurrency, 'jpy');
    for (const bad of ['dollars', 'us', 'u$d'])
      assert.throws(
        () => loadConfig({ CANOPY_PAYMENT_CURRENCY: bad }),
        /CANOPY_PAYMENT_CURRENCY: must be a three-letter/,
      );
  });

  it('reads every documented variable', () => {
    const c = loadConfig({
      PORT: '9000',
      CANOPY_DATA_DIR: '/tmp/x',
      DATABASE_URL: 'postgres://u@h/db',
      DISCORD_CLIENT_ID: '123',
      DISCORD_API_URL: 'http://127.0.0.1:1/api/',
      CANOPY_SUPER_ADMINS: '111, 222',
      NODE_ENV: 'production',
    });
    assert.equal(c.port, 9000);
    assert.equal(c.dataDir, '/tmp/x');
    assert.equal(c.databaseUrl, 'postgres://u@h/db');
    assert.equal(c.discordApiUrl, 'http://127.0.0.1:1/api');
    assert.deepEqual(c.superAdmins, ['111', '222']);
    assert.equal(c.devIdentityProvider, false);
  });

  it('refuses bad values with one message naming each variable', () => {
    assert.throws(() => loadConfig({ PORT: 'eighty' }), /PORT/);
    assert.throws(() => loadConfig({ PORT: '70000' }), /PORT/);
    assert.throws(() => loadConfig({ DATABASE_URL: 'mysql://x' }), /DATABASE_URL: must be a postgres/);
    assert.throws(() => loadConfig({ CANOPY_SUPER_ADMINS: 'abc' }), /CANOPY_SUPER_ADMINS/);
    assert.throws(() => loadConfig({ NODE_ENV: 'staging' }), /NODE_ENV/);
    assert.throws(() => loadConfig({ CANOPY_SESSION_SECRET: 'short' }), /CANOPY_SESSION_SECRET/);
  });

  it("reads the engines' memory ceilings by plan, and refuses a Paid one below the Free one", () => {
    assert.deepEqual(loadConfig({}).engineMemory, { freeMB: 256, paidMB: 512 });
    const c = loadConfig({ CANOPY_ENGINE_MEMORY_FREE_MB: '128', CANOPY_ENGINE_MEMORY_PAID_MB: '1024' });
    assert.deepEqual(c.engineMemory, { freeMB: 128, paidMB: 1024 });
    assert.throws(
      () => loadConfig({ CANOPY_ENGINE_MEMORY_FREE_MB: '600' }),
      /CANOPY_ENGINE_MEMORY_PAID_MB: must be at least CANOPY_ENGINE_MEMORY_FREE_MB \(600\)/,
    );
    for (const bad of ['32', 'lots', '1.5'])
      assert.throws(() => loadConfig({ CANOPY_ENGINE_MEMORY_FREE_MB: bad }), /CANOPY_ENGINE_MEMORY_FREE_MB/, bad);
  });

  it("reads the database's timeouts, and refuses a query timeout that would come before the server's cancel", () => {
    assert.deepEqual(loadConfig({}).database, {
      connectMs: 5000,
      statementMs: 10_000,
      queryMs: 15_000,
      idleInTransactionMs: 60_000,
      sqliteBusyMs: 5000,
    });
    const c = loadConfig({ CANOPY_DB_CONNECT_TIMEOUT_MS: '2000', CANOPY_SQLITE_BUSY_TIMEOUT_MS: '0' });
    assert.equal(c.database.connectMs, 2000);
    assert.equal(c.database.sqliteBusyMs, 0);
    assert.throws(
      () => loadConfig({ CANOPY_DB_STATEMENT_TIMEOUT_MS: '20000' }),
      /CANOPY_DB_QUERY_TIMEOUT_MS: must be longer than CANOPY_DB_STATEMENT_TIMEOUT_MS \(20000\)/,
    );
    assert.throws(() => loadConfig({ CANOPY_DB_CONNECT_TIMEOUT_MS: '10' }), /CANOPY_DB_CONNECT_TIMEOUT_MS/);
  });

  it('never runs the development sign-in in production', () => {
    assert.throws(() => loadConfig({ NODE_ENV: 'production' }), /DISCORD_CLIENT_ID: is required/);
    assert.equal(loadConfig({ NODE_ENV: 'production', DISCORD_CLIENT_ID: '1' }).devIdentityProvider, false);
    assert.equal(loadConfig({ DISCORD_CLIENT_ID: '1' }).devIdentityProvider, false);
  });
});
