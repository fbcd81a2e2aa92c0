import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../src/config.ts';
import { startGateway } from '../src/gateway/gateway.ts';
import { embeddedGatewayContext } from '../src/gateway/tenants.ts';
import { ownerWithServer } from './support/factories.ts';
import { startApi, type TestApi } from './support/harness.ts';

describe('gateway start-up', () => {
  let api: TestApi;
  before(async () => {
    api = await startApi('sqlite');
  });
  after(() => api.close());

  it('is off by default under NODE_ENV=test, on by default otherwise', () => {
    assert.equal(api.ctx.gateway, undefined);
    assert.equal(loadConfig({ NODE_ENV: 'test' }).gateway.enabled, false);
    assert.equal(loadConfig({ NODE_ENV: 'development' }).gateway.enabled, true);
    assert.equal(loadConfig({ NODE_ENV: 'development', CANOPY_GATEWAY: 'off' }).gateway.enabled, false);
  });

  it('refuses a front port inside the game ports, and a certificate without its key', () => {
    assert.throws(
      () => loadConfig({ CANOPY_GAME_PORTS: '17000-17100', CANOPY_GATEWAY_UDP_PORT: '17091' }),
      /CANOPY_GATEWAY_UDP_PORT: must lie outside CANOPY_GAME_PORTS/,
    );
    assert.throws(() => loadConfig({ CANOPY_GATEWAY_TLS_CERT: '/x.pem' }), /CANOPY_GATEWAY_TLS_KEY/);
    assert.deepEqual(loadConfig({}).gamePorts, { from: 17092, to: 17191 });
    assert.equal(loadConfig({}).gateway.udpPort, 17091);
  });

  it('says which hosted server holds the front port (one made before the game ports moved off 17091)', async () => {
    const name = `Old${process.pid % 10000}`;
    const owner = await ownerWithServer(api, name);
    const port = 30000 + (process.pid % 2000);
    await api.ctx.db.run('UPDATE servers SET game_port = ? WHERE owner_id = ?', [port, owner.user.id]);
    const config = { ...api.ctx.config, gateway: { ...api.ctx.config.gateway, enabled: true, udpPort: port } };
    await assert.rejects(
      startGateway(embeddedGatewayContext({ ...api.ctx, config })),
      new RegExp(`hosted server ${name} holds UDP port ${port}`),
    );
  });
});
